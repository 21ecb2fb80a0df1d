import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** What the downloader asks for when the request names no Accept-Encoding: Scrapy's HttpCompressionMiddleware list with brotli installed. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/** A body that does not decode with an encoding it was labelled with. */
export class ContentDecodingFailure extends Error {
  constructor(readonly encoding: string, readonly reason: string, options?: { cause?: unknown }) {
    super(`${encoding}: ${reason}`, options);
    this.name = 'ContentDecodingFailure';
  }
}

/** The decoded body would pass `maxSize` bytes. */
export class DecodedTooLarge extends Error {
  constructor(readonly maxSize: number) {
    super(`decoded body larger than ${maxSize} bytes`);
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
 * decoded (zlib's sync flush), as Scrapy's gunzip and browsers do; a corrupt
 * one throws ContentDecodingFailure. `maxSize` (0 = none) bounds the output
 * so that a small compressed bomb cannot fill memory (Scrapy ≥ 2.11 applies
 * DOWNLOAD_MAXSIZE to the decompressed size too).
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

async function decodeOne(body: Buffer, coding: string, maxSize: number): Promise<Buffer | null> {
  const limit = maxSize > 0 ? { maxOutputLength: maxSize } : {};
  const zlibOptions = { finishFlush: zlib.constants.Z_SYNC_FLUSH, ...limit };
  try {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return await gunzip(body, zlibOptions);
      case 'deflate':
        // Some servers send raw deflate under this name (Scrapy's inflate() falls back the same way).
        try {
          return await inflate(body, zlibOptions);
        } catch (error) {
          if (isTooLarge(error)) throw error;
          return await inflateRaw(body, zlibOptions);
        }
      case 'br':
        return await brotliDecompress(body, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH, ...limit });
      default:
        return null;
    }
  } catch (error) {
    if (isTooLarge(error)) throw new DecodedTooLarge(maxSize);
    // zlib's errors come from Node's realm, so no `instanceof Error` (it is false under jest's vm modules).
    const message = (error as { message?: unknown } | null)?.message;
    throw new ContentDecodingFailure(coding, typeof message === 'string' ? message : String(error), { cause: error });
  }
}

function isTooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}
