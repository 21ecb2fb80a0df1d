import zlib from 'node:zlib';
import { isGzipped, memberDataStart, TRAILER_BYTES } from '../download/gzip-member.js';

export { isGzipped };

/** The decompressed body would pass `maxSize` bytes (a gzip bomb, or a sitemap over DOWNLOAD_MAXSIZE). */
export class GunzipSizeError extends Error {
  constructor(readonly maxSize: number) {
    super(`decompressed body larger than ${maxSize} bytes`);
  }
}

// zlib's error for maxOutputLength (checked by code: zlib errors come from Node's realm).
function isTooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

/**
 * Scrapy's `gunzip`: decompresses every gzip member and keeps what came out
 * before a fault (a truncated file, a bad checksum, garbage after the last
 * member), failing only when nothing came out at all. zlib's own gunzip
 * throws away everything on a bad checksum, so this inflates each member's
 * deflate data itself and never checks the trailer, as Python's GzipFile
 * loop in Scrapy ends up doing.
 */
export function gunzip(data: Uint8Array, maxSize = 0): Buffer {
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // Bounded as zlib inflates, so a small bomb never becomes a huge Buffer (Scrapy 2.11's rule; 2.8 had none).
  const limit = maxSize > 0 ? { maxOutputLength: maxSize } : {};
  const whole = tryGunzip(body, limit, maxSize);
  if (whole !== null) return whole;
  let total = 0;
  const parts: Buffer[] = [];
  let at = 0;
  let failure: unknown = null;
  while (at < body.length) {
    const start = memberDataStart(body, at);
    if (start === -1) {
      break;
    }
    let inflated: { buffer: Buffer; engine: zlib.InflateRaw };
    try {
      // `info` exposes the engine, whose bytesWritten is how much input the member's deflate data used.
      inflated = zlib.inflateRawSync(body.subarray(start), { ...limit, finishFlush: zlib.constants.Z_SYNC_FLUSH, info: true }) as unknown as typeof inflated;
    } catch (error) {
      if (isTooLarge(error)) throw new GunzipSizeError(maxSize);
      failure = error;
      break;
    }
    total += inflated.buffer.length;
    if (maxSize > 0 && total > maxSize) throw new GunzipSizeError(maxSize);
    parts.push(inflated.buffer);
    at = start + inflated.engine.bytesWritten + TRAILER_BYTES;
  }
  if (parts.length === 0 || parts.every((part) => part.length === 0)) {
    // zlib's errors come from Node's realm (not `instanceof Error` under jest's vm modules): keep the message only.
    const message = (failure as { message?: unknown } | null)?.message;
    throw new Error(`Not a gzipped file or a corrupt one: ${typeof message === 'string' ? message : 'no gzip header'}`);
  }
  return Buffer.concat(parts);
}

function tryGunzip(body: Buffer, limit: zlib.ZlibOptions, maxSize: number): Buffer | null {
  try {
    // A sync flush at the end keeps the output of a truncated stream instead of failing.
    return zlib.gunzipSync(body, { ...limit, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch (error) {
    if (isTooLarge(error)) throw new GunzipSizeError(maxSize);
    return null;
  }
}
