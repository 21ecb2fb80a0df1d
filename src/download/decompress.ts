import zlib from 'node:zlib';
import { memberDataStart, TRAILER_BYTES } from './gzip-member.js';

/** What the downloader asks for when the request names no Accept-Encoding: Scrapy's HttpCompressionMiddleware list with brotli installed. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';


/** A body that does not decode with an encoding it was labelled with. */
export class ContentDecodingFailure extends Error {
  constructor(readonly encoding: string, readonly reason: string, options?: { cause?: unknown }) {
    super(`${encoding}: ${reason}`, options);
    this.name = 'ContentDecodingFailure';
  }
}

/** The decoded body would pass `maxSize` bytes; `size` is how many bytes had come out when decoding stopped. */
export class DecodedTooLarge extends Error {
  constructor(readonly maxSize: number, readonly size: number) {
    super(`decoded body larger than ${maxSize} bytes (stopped after ${size})`);
    this.name = 'DecodedTooLarge';
  }
}

export interface DecodedBody {
  body: Buffer;
  /** Encodings left undecoded (unknown ones, and any applied before them), in header order; empty when all were decoded. */
  remaining: string[];
}

/**
 * Undoes Content-Encoding, last applied first. Unlike Scrapy 2.8, which
 * decodes one header value per pass and misses `gzip, br` written on one
 * line, every listed coding is undone; an unknown coding stops the work and
 * is left in `remaining` (the header keeps it). Truncated streams yield what
 * decoded (zlib's sync flush), as Scrapy's gunzip and browsers do; so does a
 * gzip body whose trailer lies (wrong CRC or length) or whose tail is
 * corrupt (inflateMembers). A stream that yields nothing before it breaks
 * throws ContentDecodingFailure.
 *
 * `maxSize` (0 = none) bounds every decoded stage while it inflates: the
 * output is counted chunk by chunk and decoding stops with DecodedTooLarge
 * as soon as it passes the limit, so a 0.6 MB gzip bomb costs at most
 * `maxSize` bytes, never its 600 MB (Scrapy >= 2.11 applies DOWNLOAD_MAXSIZE
 * to the decompressed size too). A gzip body's trailer announces its
 * inflated size; when that fits the limit the output is written into one
 * buffer of that size, so a large body is not held twice (chunks, then their
 * concatenation) at the end; without one (br, deflate), a body past 64 MiB
 * is counted, then inflated again into one buffer (SPILL_BYTES).
 * docs/reliability.md measures what that saves.
 */
export async function decodeContent(body: Buffer, contentEncoding: readonly string[], maxSize: number): Promise<DecodedBody> {
  const codings = contentEncoding.flatMap((value) => value.split(',')).map((c) => c.trim().toLowerCase()).filter((c) => c !== '');
  let current = body;
  while (codings.length > 0) {
    const coding = codings[codings.length - 1]!;
    if (coding === 'identity') {
      codings.pop();
      continue;
    }
    const decoded = await decodeOne(current, coding, maxSize);
    if (decoded === null) break;
    current = decoded;
    codings.pop();
  }
  return { body: current, remaining: codings };
}

const KNOWN = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

async function decodeOne(body: Buffer, coding: string, maxSize: number): Promise<Buffer | null> {
  if (!KNOWN.has(coding)) return null;
  try {
    if (coding !== 'deflate') return await inflateLimited(body, coding === 'br' ? 'br' : 'gzip', maxSize);
    // Some servers send raw deflate under this name (Scrapy's inflate() falls back the same way).
    try {
      return await inflateLimited(body, 'zlib', maxSize);
    } catch (error) {
      if (error instanceof DecodedTooLarge) throw error;
      return await inflateLimited(body, 'raw', maxSize);
    }
  } catch (error) {
    if (error instanceof DecodedTooLarge) throw error;
    // zlib's errors come from Node's realm, so no `instanceof Error` (it is false under jest's vm modules).
    const message = (error as { message?: unknown } | null)?.message;
    throw new ContentDecodingFailure(coding, typeof message === 'string' ? message : String(error), { cause: error });
  }
}

/** Output chunks of 64 KiB: a 640 MiB bomb is ~10,000 'data' events instead of ~40,000 with zlib's 16 KiB. */
const CHUNK = 64 * 1024;

/** A decoder for one stream; gzip is inflated raw, member by member (inflateMembers). */
function decoderFor(format: 'zlib' | 'raw' | 'br'): zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress {
  const options = { finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: CHUNK };
  switch (format) {
    case 'zlib':
      return zlib.createInflate(options);
    case 'raw':
      return zlib.createInflateRaw(options);
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH, chunkSize: CHUNK });
  }
}

/** The inflated size a gzip body's trailer announces (ISIZE, mod 2^32; the last member's only), or null. */
function announcedSize(body: Buffer, format: string): number | null {
  if (format !== 'gzip' || body.length < 18 || body[0] !== 0x1f || body[1] !== 0x8b) return null;
  const size = body.readUInt32LE(body.length - 4);
  return size > 0 ? size : null;
}

/**
 * Past this many decoded bytes with no trailer to size them (br, deflate, a
 * gzip trailer that understated), the chunks are dropped and only counted;
 * the body is then inflated a second time into one buffer of the exact size.
 * The CPU of a second pass (~1 s for 640 MiB) buys a peak of size + 64 MiB
 * instead of twice the size (chunks, then their concatenation).
 */
const SPILL_BYTES = 64 * 1024 * 1024;

type Format = 'gzip' | 'zlib' | 'raw' | 'br';

/** Inflates `body`, counting the output as it comes and stopping as soon as it passes `maxSize` (0 = no limit). */
async function inflateLimited(body: Buffer, format: Format, maxSize: number): Promise<Buffer> {
  const announced = announcedSize(body, format);
  // allocUnsafe of a large size maps pages that cost no memory until written, so a lying trailer costs nothing.
  const target = announced !== null && (maxSize === 0 || announced <= maxSize) && announced > CHUNK ? allocate(announced) : null;
  const first = await inflatePass(body, format, maxSize, target, spillBytes);
  if (first.body !== null) return first.body;
  // Spilled: the size is known now, inflate again straight into a buffer of that size.
  const exact = allocate(first.size);
  if (exact === null) throw new DecodedTooLarge(maxSize, first.size);
  const second = await inflatePass(body, format, first.size, exact, Infinity);
  return second.body!;
}

/** A buffer of `size` bytes, or null when the system refuses one that large (the caller then keeps chunks). */
function allocate(size: number): Buffer | null {
  try {
    return Buffer.allocUnsafe(size);
  } catch {
    return null;
  }
}

let spillBytes = SPILL_BYTES;
/** For tests: the spill threshold (default 64 MiB); returns the previous one. */
export function setSpillBytes(bytes: number): number {
  const previous = spillBytes;
  spillBytes = bytes;
  return previous;
}

/**
 * One pass of the decoder over `body`. Output goes into `target` while it
 * fits, else into chunks; past `spill` bytes in chunks they are dropped and
 * only counted (`body` null, `size` the full count).
 */
async function inflatePass(body: Buffer, format: Format, maxSize: number, target: Buffer | null, spill: number): Promise<{ body: Buffer | null; size: number }> {
  const sink = new Sink(maxSize, target, spill);
  if (format === 'gzip') await inflateMembers(body, sink);
  else await drain(decoderFor(format), body, sink);
  return sink.result();
}

/**
 * Each gzip member's deflate data inflated raw, its trailer skipped: zlib's
 * gunzip checks the CRC and length only after its last output and then
 * drops that output with the error, while Scrapy's gunzip (and browsers,
 * which skip the CRC) keep a body whose trailer lies. For the same reason
 * a member that breaks after some output ends the body with what came out;
 * one that yields nothing is a corrupt body.
 */
async function inflateMembers(body: Buffer, sink: Sink): Promise<void> {
  let at = 0;
  while (at < body.length) {
    const start = memberDataStart(body, at);
    if (start === -1) {
      // Garbage after the last member is ignored, as zlib's gunzip does.
      if (at === 0) throw Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR' });
      return;
    }
    let consumed: number;
    try {
      consumed = await drain(decoderFor('raw'), body.subarray(start), sink);
    } catch (error) {
      if (error instanceof DecodedTooLarge || sink.size === 0) throw error;
      return;
    }
    at = start + consumed + TRAILER_BYTES;
  }
}

/** Where decoded bytes go, counted against maxSize as they come. */
class Sink {
  size = 0;
  #chunks: Buffer[] = [];
  #spilled = false;

  constructor(readonly maxSize: number, private target: Buffer | null, readonly spill: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    const { size } = this;
    if (this.maxSize > 0 && size > this.maxSize) {
      this.#chunks.length = 0;
      this.target = null;
      throw new DecodedTooLarge(this.maxSize, size);
    }
    if (this.#spilled) return;
    if (this.target !== null && size <= this.target.length) {
      chunk.copy(this.target, size - chunk.length);
      return;
    }
    if (this.target !== null) {
      // The trailer understated the size (several gzip members, or a lie): go on in chunks.
      this.#chunks.push(this.target.subarray(0, size - chunk.length));
      this.target = null;
    }
    if (size > this.spill) {
      this.#spilled = true;
      this.#chunks.length = 0;
      return;
    }
    this.#chunks.push(chunk);
  }

  result(): { body: Buffer | null; size: number } {
    const { size, target } = this;
    if (this.#spilled) return { body: null, size };
    return { body: target !== null ? (size === target.length ? target : Buffer.from(target.subarray(0, size))) : Buffer.concat(this.#chunks, size), size };
  }
}

/** Runs `decoder` over `input` into `sink`; resolves with the input bytes the decoder consumed. */
function drain(decoder: zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress, input: Buffer, sink: Sink): Promise<number> {
  return new Promise((resolve, reject) => {
    let done = false;
    decoder.on('data', (chunk: Buffer) => {
      if (done) return;
      try {
        sink.add(chunk);
      } catch (error) {
        done = true;
        decoder.destroy();
        reject(error);
      }
    });
    decoder.once('end', () => {
      if (done) return;
      done = true;
      resolve(decoder.bytesWritten);
    });
    decoder.once('error', (error: unknown) => {
      if (done) return;
      done = true;
      reject(error);
    });
    decoder.end(input);
  });
}
