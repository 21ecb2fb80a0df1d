/**
 * A capture as WARC 1.1 records, serialized by warcio (each record its own
 * gzip member, sha1 digests in base32 as Heritrix, wget and pywb write
 * them): the response, the request that got it (WARC-Concurrent-To the
 * response), and for a rendered page the DOM as a `resource` record of its
 * own URI (docs/warc.md says why). Also the `warcinfo` record every file
 * starts with and the CDXJ line of a response.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import type { BaseSerializerBuffer, WARCRecord } from 'warcio';
import { lazyPackage } from '../errors/lazy-package.js';
import type { Capture } from './capture.js';

export type Warcio = typeof import('warcio');

export const loadWarcio = lazyPackage<Warcio>('warcio', 'writing WARC archives (WARC_ENABLED)');

const WARC_VERSION = 'WARC/1.1';
/**
 * warcio writes the record and its digests; the gzip member is made with
 * Node's zlib, not warcio's own gzip option: on Node 20 that option goes
 * through CompressionStream, which took 12 s and 227 MB of RSS for a 200 MB
 * body, against 4 s and a flat 45 MB for warcio's uncompressed output
 * (docs/dependencies.md, "warcio").
 */
const SERIALIZE = { gzip: false, digest: { algo: 'sha-1', prefix: 'sha1:', base32: true } } as const;
const gzipAsync = promisify(gzip);
/** The URI scheme of a rendered DOM record: `urn:dom:<page URL>` (as Browsertrix names its `urn:text:`/`urn:view:` records of a page). */
export const DOM_URI_PREFIX = 'urn:dom:';

/** One record, serialized, with the CDXJ line it gets once its place in the file is known (null: not indexed). */
export interface SerializedRecord {
  /** Its gzip member: in memory, or as a stream for a body read from a file. */
  readonly bytes: Uint8Array | AsyncIterable<Uint8Array>;
  /** Its size in bytes; for a stream, the uncompressed payload's (what rollover plans with). */
  readonly size: number;
  readonly type: string;
  readonly index: ((offset: number, length: number, filename: string) => string) | null;
}

function recordId(record: WARCRecord): string {
  return record.warcHeaders.headers.get('WARC-Record-ID') ?? '';
}

/** `record` as one gzip member in memory; compressed off the event loop (zlib's thread pool). */
async function gzipped(warcio: Warcio, record: WARCRecord): Promise<Uint8Array> {
  return gzipAsync(await warcio.WARCSerializer.serialize(record, SERIALIZE));
}

async function serialized(warcio: Warcio, record: WARCRecord, index: SerializedRecord['index']): Promise<SerializedRecord> {
  const bytes = await gzipped(warcio, record);
  return { bytes, size: bytes.length, type: record.warcType, index };
}

/**
 * warcio reads a payload twice, once for its digests and once to write it,
 * and keeps it in between (in memory by default). A payload that is a file
 * is read from the file again instead, so a big media body never sits in
 * memory.
 */
function rereadFile(warcio: Warcio, path: string): BaseSerializerBuffer {
  return new (class extends warcio.BaseSerializerBuffer {
    write(): void {}
    readAll(): AsyncIterable<Uint8Array> {
      return fileChunks(path);
    }
    purge(): void {}
  })();
}

/** A file's bytes, opened when first read (a record never written leaves no descriptor open). */
async function* fileChunks(path: string): AsyncIterable<Uint8Array> {
  yield* createReadStream(path) as AsyncIterable<Buffer>;
}

/** The records of one capture, in file order: response, request, then the rendered DOM if any. */
export async function captureRecords(warcio: Warcio, capture: Capture): Promise<SerializedRecord[]> {
  const date = capture.date.toISOString();
  const response = warcio.WARCRecord.create(
    {
      url: capture.url,
      date,
      type: 'response',
      warcVersion: WARC_VERSION,
      statusline: capture.statusLine,
      httpHeaders: capture.responseHeaders,
      keepHeadersCase: true,
      warcHeaders: {
        ...(capture.ip === null ? {} : { 'WARC-IP-Address': capture.ip }),
        ...(capture.truncated === null ? {} : { 'WARC-Truncated': capture.truncated }),
      },
    },
    capture.responseBodyFile === null ? [capture.responseBody] : fileChunks(capture.responseBodyFile.path),
  );
  const request = warcio.WARCRecord.create(
    {
      url: capture.url,
      date,
      type: 'request',
      warcVersion: WARC_VERSION,
      statusline: capture.requestLine,
      httpHeaders: capture.requestHeaders,
      keepHeadersCase: true,
      warcHeaders: { 'WARC-Concurrent-To': recordId(response) },
    },
    capture.requestBody.length > 0 ? [capture.requestBody] : [],
  );
  // warcio's indexer reads a POST's body from the request record's parsed payload (its SURT key gets
  // `?__wb_method=post&…`, as pywb looks POSTs up); a record written here was never parsed.
  if (capture.requestBody.length > 0) request.payload = capture.requestBody;
  const indexer = new warcio.CDXIndexer({ format: 'cdxj' });
  const index: SerializedRecord['index'] = (offset, length, filename) => indexAt(indexer, response, request, offset, length, filename);
  let responseRecord: SerializedRecord;
  if (capture.responseBodyFile === null) {
    const bytes = await gzipped(warcio, response);
    responseRecord = { bytes, size: bytes.length, type: 'response', index };
  } else {
    // Streamed through zlib as it is written, with backpressure: the body is never whole in memory.
    const serializer = new warcio.WARCSerializer(response, SERIALIZE, rereadFile(warcio, capture.responseBodyFile.path));
    responseRecord = { bytes: Readable.from(serializer).pipe(createGzip()), size: capture.responseBodyFile.size, type: 'response', index };
  }
  const records: SerializedRecord[] = [
    responseRecord,
    await serialized(warcio, request, null),
  ];
  if (capture.renderedDom !== null) {
    const dom = warcio.WARCRecord.create(
      {
        url: `${DOM_URI_PREFIX}${capture.url}`,
        date,
        type: 'resource',
        warcVersion: WARC_VERSION,
        warcHeaders: { 'Content-Type': 'text/html; charset=utf-8', 'WARC-Concurrent-To': recordId(response) },
      },
      [capture.renderedDom],
    );
    const domBytes = await gzipped(warcio, dom);
    records.push({
      bytes: domBytes,
      size: domBytes.length,
      type: 'resource',
      index: (offset, length, filename) => indexAt(indexer, dom, null, offset, length, filename),
    });
  }
  return records;
}

/** The CDXJ line of `record` at `offset`: warcio's indexer reads the offset and length it keeps on the record over the ones it is given. */
function indexAt(indexer: InstanceType<Warcio['CDXIndexer']>, record: WARCRecord, request: WARCRecord | null, offset: number, recordLength: number, filename: string): string {
  record._offset = offset;
  record._length = recordLength;
  return indexLine(indexer, indexer.indexRecordPair(record, request, { offset, recordLength }, filename));
}

function indexLine(indexer: InstanceType<Warcio['CDXIndexer']>, fields: Record<string, unknown> | null): string {
  return fields === null ? '' : indexer.serializeCDXJ(fields);
}

/** The `warcinfo` record that opens `filename`. */
export async function warcinfoRecord(warcio: Warcio, filename: string, info: Record<string, string>, date: Date): Promise<SerializedRecord> {
  const record = warcio.WARCRecord.createWARCInfo({ filename, warcVersion: WARC_VERSION, date: date.toISOString() }, info);
  return serialized(warcio, record, null);
}
