import { describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { ContentDecodingFailure, DecodedTooLarge, decodeContent } from '../../src/download/decompress.js';

const text = Buffer.from('the quick brown fox '.repeat(20));

describe('decodeContent', () => {
  it('undoes codings listed on one line, last applied first', async () => {
    const body = zlib.brotliCompressSync(zlib.gzipSync(text));
    const decoded = await decodeContent(body, ['gzip, br'], 0);
    expect([decoded.body.equals(text), decoded.remaining]).toEqual([true, []]);
  });

  it('undoes codings given as separate header values', async () => {
    const decoded = await decodeContent(zlib.deflateSync(zlib.gzipSync(text)), ['x-gzip', 'deflate'], 0);
    expect(decoded.body.equals(text)).toBe(true);
  });

  it('skips identity and stops at an unknown coding, leaving it and those before it', async () => {
    const decoded = await decodeContent(zlib.gzipSync(text), ['gzip, zstd, gzip', 'identity'], 0);
    expect([decoded.body.equals(text), decoded.remaining]).toEqual([true, ['gzip', 'zstd']]);
  });

  it('returns what a truncated gzip stream decodes to, as Scrapy does', async () => {
    const gz = zlib.gzipSync(text);
    const decoded = await decodeContent(gz.subarray(0, gz.length - 8), ['gzip'], 0);
    expect(decoded.body.toString()).toBe(text.toString());
  });

  it('throws ContentDecodingFailure for a corrupt stream, naming the coding', async () => {
    const error = await decodeContent(Buffer.from('not brotli at all'), ['br'], 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentDecodingFailure);
    expect((error as ContentDecodingFailure).encoding).toBe('br');
  });

  it('throws DecodedTooLarge when the output passes maxSize', async () => {
    const error = await decodeContent(zlib.gzipSync(Buffer.alloc(50_000)), ['gzip'], 1000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodedTooLarge);
    expect((error as DecodedTooLarge).maxSize).toBe(1000);
  });
});
