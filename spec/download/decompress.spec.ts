import { describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { ContentDecodingFailure, DecodedTooLarge, decodeContent, setSpillBytes } from '../../src/download/decompress.js';

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

  it('stops inflating a bomb at the first chunk past maxSize, without inflating the rest', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const before = process.memoryUsage().arrayBuffers;
    const error = await decodeContent(bomb, ['gzip'], 1024 * 1024).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodedTooLarge);
    expect((error as DecodedTooLarge).size).toBe(1024 * 1024 + 64 * 1024);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
  });

  it('decodes a gzip body into one buffer of the size its trailer announces', async () => {
    const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 7));
    const decoded = await decodeContent(zlib.gzipSync(data), ['gzip'], 0);
    expect([decoded.body.length, decoded.body.equals(data), decoded.body.buffer.byteLength]).toEqual([300_000, true, 300_000]);
  });

  it('decodes a multi-member gzip body whose trailer understates the total size', async () => {
    const first = Buffer.alloc(200_000, 'a');
    const second = Buffer.alloc(100_000, 'b');
    const decoded = await decodeContent(Buffer.concat([zlib.gzipSync(first), zlib.gzipSync(second)]), ['gzip'], 0);
    expect(decoded.body.equals(Buffer.concat([first, second]))).toBe(true);
  });

  it('decodes a gzip body whose trailer overstates the size, as Scrapy does', async () => {
    const gz = Buffer.from(zlib.gzipSync(Buffer.alloc(100_000, 'z')));
    gz.writeUInt32LE(900_000, gz.length - 4);
    const decoded = await decodeContent(gz, ['gzip'], 0);
    expect(decoded.body.equals(Buffer.alloc(100_000, 'z'))).toBe(true);
  });

  it('keeps the whole body of a gzip stream whose CRC is wrong, past the last 64 KiB chunk', async () => {
    const data = Buffer.from(Array.from({ length: 150_000 }, (_, i) => 97 + (i % 26)));
    const gz = Buffer.from(zlib.gzipSync(data));
    gz.writeUInt32LE(0xdeadbeef, gz.length - 8);
    const decoded = await decodeContent(gz, ['gzip'], 0);
    expect(decoded.body.equals(data)).toBe(true);
  });

  it('keeps both members of a gzip body whose first trailer lies', async () => {
    const one = Buffer.from(zlib.gzipSync('first member, '));
    one.writeUInt32LE(0, one.length - 8);
    const decoded = await decodeContent(Buffer.concat([one, zlib.gzipSync('second member')]), ['gzip'], 0);
    expect(decoded.body.toString()).toBe('first member, second member');
  });

  it('still stops a gzip bomb whose trailer lies at maxSize', async () => {
    const gz = Buffer.from(zlib.gzipSync(Buffer.alloc(1_000_000)));
    gz.writeUInt32LE(10, gz.length - 4);
    await expect(decodeContent(gz, ['gzip'], 100_000)).rejects.toBeInstanceOf(DecodedTooLarge);
  });
});

describe('decodeContent past the spill threshold (no trailer to size the body)', () => {
  const data = Buffer.from(Array.from({ length: 1_000_000 }, (_, i) => (i * 31) % 97));

  it.each([
    ['br', zlib.brotliCompressSync(data)],
    ['deflate', zlib.deflateSync(data)],
    ['deflate', zlib.deflateRawSync(data)],
  ] as const)('%s: counts, then inflates again into one buffer of the exact size', async (coding, body) => {
    const previous = setSpillBytes(100_000);
    try {
      const decoded = await decodeContent(body, [coding], 0);
      expect([decoded.body.equals(data), decoded.body.buffer.byteLength]).toEqual([true, data.length]);
    } finally {
      setSpillBytes(previous);
    }
  });

  it('still stops at maxSize after spilling', async () => {
    const previous = setSpillBytes(100_000);
    try {
      const error = await decodeContent(zlib.brotliCompressSync(data), ['br'], 500_000).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DecodedTooLarge);
    } finally {
      setSpillBytes(previous);
    }
  });

  it('keeps what a truncated stream decodes to', async () => {
    const previous = setSpillBytes(100_000);
    try {
      const deflated = zlib.deflateSync(data);
      const decoded = await decodeContent(deflated.subarray(0, deflated.length - 4), ['deflate'], 0);
      expect(decoded.body.equals(data)).toBe(true);
    } finally {
      setSpillBytes(previous);
    }
  });
});
