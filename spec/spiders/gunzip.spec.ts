import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GunzipSizeError, gunzip, isGzipped } from '../../src/spiders/gunzip.js';
import { gzipSync } from 'node:zlib';

interface GunzipCase {
  name: string;
  inputBase64: string;
  output?: string;
  error?: string;
}

// Recorded from Scrapy 2.8's scrapy.utils.gz.gunzip by scripts/record-sitemap-fixtures.py.
const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('fixtures/sitemaps.json', import.meta.url)), 'utf8')) as { gunzip: GunzipCase[] };

describe('gunzip', () => {
  it.each(fixture.gunzip.map((c) => [c.name, c] as const))('decompresses "%s" as Scrapy 2.8 does', (_name, c) => {
    expect(c.error).toBeUndefined();
    expect(gunzip(Buffer.from(c.inputBase64, 'base64')).toString('utf8')).toBe(c.output);
  });

  it('fails on data that is not gzip at all, and on a header with nothing after it', () => {
    expect(() => gunzip(Buffer.from('<urlset/>'))).toThrow(/^Not a gzipped file or a corrupt one: /);
    expect(() => gunzip(Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff]))).toThrow(/^Not a gzipped file or a corrupt one: /);
  });

  it('stops at maxSize bytes of output, for a whole stream and member by member', () => {
    const data = gzipSync(Buffer.alloc(100_000, 97));
    expect(() => gunzip(data, 50_000)).toThrow(GunzipSizeError);
    expect(gunzip(data, 100_000)).toHaveLength(100_000);
    const twoMembers = Buffer.concat([gzipSync(Buffer.alloc(40_000, 97)), gzipSync(Buffer.alloc(40_000, 98)), Buffer.from('trailing garbage')]);
    expect(() => gunzip(twoMembers, 60_000)).toThrow(GunzipSizeError);
    expect(gunzip(twoMembers, 80_000)).toHaveLength(80_000);
  });

  it('recognises gzip by its first three bytes, as Scrapy does', () => {
    expect(isGzipped(Buffer.from([0x1f, 0x8b, 0x08, 0]))).toBe(true);
    expect(isGzipped(Buffer.from([0x1f, 0x8b, 0x09, 0]))).toBe(false);
    expect(isGzipped(Buffer.from([0x1f, 0x8b]))).toBe(false);
  });
});
