import type { IncomingMessage } from 'node:http';
import type { FetchOptions } from './fetch-contract.js';
import type { Request } from '../http/request.js';
import { Response, type BodyFile } from '../http/response.js';
import { Headers } from '../http/headers.js';
import { DecompressionError, MaxSizeError } from './download-errors.js';
import { ContentDecodingFailure, DecodedTooLarge, decodeContent } from './decompress.js';
import { keepWireResponse } from '../warc/network-exchange.js';

/** What the response is built with besides the wire: COMPRESSION_ENABLED and WARC_ENABLED. */
export interface BuildOptions {
  compression: boolean;
  keepWire: boolean;
}

/**
 * seine's Response from Node's IncomingMessage and the body's wire bytes
 * (or its file): Content-Encoding undone here, after the transfer, so that
 * sizes and errors are exact (decompress.ts). `ip` is read when the response
 * arrived: a socket closed since has forgotten its peer.
 */
export async function buildResponse(
  request: Request,
  url: string,
  res: IncomingMessage,
  ip: string | null,
  wire: Buffer,
  flags: string[],
  { compression, keepWire }: BuildOptions,
  { maxSize }: FetchOptions,
  bodyFile: BodyFile | null,
): Promise<Response> {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  let body = wire;
  const encodings = compression && wire.length > 0 ? headers.getList('content-encoding') : NONE;
  if (encodings.length > 0) {
    try {
      const decoded = await decodeContent(wire, encodings, maxSize);
      body = decoded.body;
      if (decoded.remaining.length === 0) headers.delete('content-encoding');
      else headers.set('Content-Encoding', decoded.remaining.join(', '));
    } catch (error) {
      if (error instanceof DecodedTooLarge) throw new MaxSizeError(request.url, { size: error.size, maxSize, stage: 'decompressed', compressed: wire.length, encoding: encodings.join(', ') });
      if (error instanceof ContentDecodingFailure) throw new DecompressionError(request.url, error.encoding, error.reason, { cause: error.cause });
      throw error;
    }
  }
  const response = new Response({
    // Without the fragment, as Scrapy's handler builds it: the fragment never went on the wire.
    url,
    status: res.statusCode ?? 0,
    headers,
    body,
    bodyFile,
    request,
    flags,
    ip,
    protocol: res.httpVersion === undefined ? null : `HTTP/${res.httpVersion}`,
  });
  // WARC_ENABLED: the archive records the body as it came (a body in a file came uncompressed: it is the file).
  if (keepWire && bodyFile === null) keepWireResponse(response, { statusText: res.statusMessage ?? '', headers: headerPairs(raw), body: wire });
  return response;
}

const NONE: readonly string[] = [];

function headerPairs(raw: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/** Whether a response to `method` with `status` carries a body at all. */
export function hasBody(method: string, status: number): boolean {
  return method !== 'HEAD' && status !== 204 && status !== 304 && (status < 100 || status >= 200);
}
