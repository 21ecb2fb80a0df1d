/**
 * The layout of a gzip member (RFC 1952), read without zlib: decoders that
 * inflate a member's deflate data themselves skip zlib's trailer check, and
 * so keep a body whose CRC or length lies (downloader and sitemap spider).
 */

/** Scrapy's `gzip_magic_number`: the body starts with a gzip header using deflate (1f 8b 08). */
export function isGzipped(body: Uint8Array): boolean {
  return body.length >= 3 && body[0] === 0x1f && body[1] === 0x8b && body[2] === 0x08;
}

/** Where the deflate data of the gzip member at `at` begins, or -1 when no complete member header is there. */
export function memberDataStart(body: Buffer, at: number): number {
  if (!isGzipped(body.subarray(at))) return -1;
  const flags = body[at + 3] ?? 0;
  let p = at + 10;
  if (flags & 0x04) p = p + 2 > body.length ? Number.POSITIVE_INFINITY : p + 2 + body.readUInt16LE(p); // FEXTRA
  for (const flag of [0x08, 0x10]) { // FNAME, FCOMMENT: NUL-terminated
    if ((flags & flag) === 0 || p > body.length) continue;
    const end = body.indexOf(0, p);
    p = end === -1 ? Number.POSITIVE_INFINITY : end + 1;
  }
  if (flags & 0x02) p += 2; // FHCRC
  return p <= body.length ? p : -1;
}

/** Bytes after a member's deflate data: its CRC32 and ISIZE. */
export const TRAILER_BYTES = 8;
