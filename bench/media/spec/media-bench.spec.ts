/**
 * bench:media's own parts: the pictures it serves, the feed spider's items,
 * its options and its report (bench/media/run.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import type { CrawlerMeasurement } from '../../crawl/crawler-run.js';
import { FeedBenchSpider } from '../feed-spider.js';
import { parseOptions, report, type Result } from '../run.js';
import { makeSourceImages, SOURCES } from '../source-images.js';

const sharp = createRequire(import.meta.url)('sharp') as (typeof import('sharp'))['default'];

function result(crawler: string, seconds: number, cpuSeconds: number, rssMb: number, full: number, thumbs = [full, full]): Result {
  const m: CrawlerMeasurement = {
    crawler, exitCode: 0, wallSeconds: seconds, cpuSeconds, peakRssBytes: rssMb * 1024 * 1024, source: 'rusage', feedItems: full, stats: {},
  };
  return { m, served: full, full, thumbs };
}

describe('bench:media', () => {
  it('serves 12 pictures: 10 JPEGs and 2 PNGs of 20–160 KB', async () => {
    const sources = await makeSourceImages();
    expect(sources).toHaveLength(SOURCES);
    const formats = await Promise.all(sources.map(async ({ bytes }) => (await sharp(bytes).metadata()).format));
    expect(formats).toEqual([...Array<string>(10).fill('jpeg'), 'png', 'png']);
    for (const { bytes } of sources) expect(bytes.length / 1024).toBeGreaterThan(20);
    for (const { bytes } of sources) expect(bytes.length / 1024).toBeLessThan(160);
  });

  it('yields the same ~1 KB items for a page every time', () => {
    const spider = new FeedBenchSpider();
    spider.items = '50';
    const page = { meta: { page: 3 }, url: 'http://127.0.0.1:1/list/3' } as never;
    const items = [...spider.parse(page)];
    expect(items).toHaveLength(50);
    expect([...spider.parse(page)]).toEqual(items);
    const size = JSON.stringify(items).length / items.length;
    expect(size).toBeGreaterThan(900);
    expect(size).toBeLessThan(1100);
  });

  it('refuses an --images that is not a whole number', () => {
    expect(() => parseOptions(['--images', 'many'])).toThrow('--images "many" is not a whole number ≥ 1; e.g. --images 2000');
    expect(parseOptions(['--no-feed'])).toMatchObject({ images: 2000, feedMb: 0, scrapy: true });
  });

  it('reports images/s, the ratio to Scrapy against the goal, and missing images', () => {
    const lines = report([result('seine', 10, 30, 180, 2000), result('Scrapy', 40, 30, 110, 1990, [1990, 1990])], 2000);
    expect(lines[0]).toMatch(/^crawler\s+images\s+thumbs\s+items\s+seconds\s+images\/s\s+CPU s\s+CPU ms\/image\s+peak RSS MB$/);
    expect(lines[1]).toMatch(/^seine\s+2000\s+2000\+2000\s+2000\s+10\.0\s+200\.0\s+30\.0\s+15\.0\s+180\.0$/);
    expect(lines).toContain('warning: Scrapy stored 1990 images and 1990+1990 thumbnails of 2000 (log: scrapy.log)');
    expect(lines).toContain('seine/Scrapy images/s: 4.02× (goal ≥ 3×: met); CPU per image: 1.00× Scrapy\'s');
    expect(lines).toContain('seine peak RSS: 180.0 MB (goal ≤ 200 MB: met)');
  });
});
