import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spider, type FileResult, type Response } from '../../src/index.js';
import { readImageSize } from '../../src/media/image-conversion.js';
import { runCrawl } from '../helpers/site-server.js';
import { startImageSite, type ImageSite } from '../helpers/image-site.js';

/**
 * ImagesPipeline on the image test site, against what Scrapy 2.8's
 * ImagesPipeline stored for the same URLs (images-oracle.json, recorded by
 * spec/media/fixtures/record-images-oracle.py with the same settings):
 * paths, statuses, image and thumbnail sizes, checksums of JPEGs kept as they
 * came, the WARNING of each URL that fails, and the stats.
 */

interface StoredImage { path: string; width: number; height: number; md5: string }
interface OracleEntry {
  status?: string;
  checksum?: string;
  source_md5?: string;
  full?: StoredImage;
  thumbs?: Record<string, StoredImage>;
  failed?: Array<{ level: string; logger: string; message: string }>;
}
const oracle = JSON.parse(readFileSync(new URL('./fixtures/images-oracle.json', import.meta.url), 'utf8')) as {
  urls: Record<string, OracleEntry>;
  stats: Record<string, number>;
  thumbs: Record<string, [number, number]>;
  min_size: [number, number];
};

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

let site: ImageSite;
let store: string;
let temp: string;

beforeAll(async () => {
  site = await startImageSite();
  temp = mkdtempSync(join(tmpdir(), 'seine-images-temp-'));
});
afterAll(async () => {
  await site.close();
  rmSync(temp, { recursive: true, force: true });
});
afterEach(() => {
  rmSync(store, { recursive: true, force: true });
  expect(readdirSync(temp)).toEqual([]);
});

/** Scrapy's oracle spider: one item per product of the listing page. */
class ImagesSpider extends Spider {
  static override name = 'images';
  override *parse(response: Response) {
    for (const src of response.css('div.product img::attr(src)').getall()) yield { src, image_urls: [response.urljoin(src)] };
  }
}

function settings(extra: Record<string, unknown> = {}) {
  store = mkdtempSync(join(tmpdir(), 'seine-images-'));
  return {
    ITEM_PIPELINES: { ImagesPipeline: 1 },
    IMAGES_STORE: store,
    IMAGES_THUMBS: oracle.thumbs,
    IMAGES_MIN_WIDTH: oracle.min_size[0],
    IMAGES_MIN_HEIGHT: oracle.min_size[1],
    FEED_TEMPDIR: temp,
    ...extra,
  };
}

describe('ImagesPipeline against Scrapy 2.8', () => {
  it('stores what Scrapy stores for every URL of the image site: paths, sizes, thumbnails, checksums, failures, stats', async () => {
    class SiteImages extends ImagesSpider {
      static override name = 'siteimages';
      override startUrls = [site.url('/')];
    }
    const run = await runCrawl(SiteImages, settings());
    const bySrc = new Map(run.items.map((item) => [item['src'] as string, (item['images'] as FileResult[])[0]]));
    expect([...bySrc.keys()].sort()).toEqual(Object.keys(oracle.urls).sort());
    const port = new URL(site.url('/')).port;
    for (const [src, expected] of Object.entries(oracle.urls)) {
      const url = site.url(src);
      const result = bySrc.get(src);
      if (expected.failed !== undefined) {
        expect(result).toBeUndefined();
        const ours = run.logs.filter((l) => l.logger === 'seine.pipelines.files' && l.level !== 'DEBUG' && l.message.includes(url)).map((l) => `${l.level} ${l.message}`);
        const theirs = expected.failed.filter((l) => l.logger === 'scrapy.pipelines.files').map((l) => `${l.level} ${l.message.replaceAll('PORT', port)}`);
        expect(ours).toHaveLength(1);
        // The download error's own words (after the last ': ') are Twisted's in Scrapy, and seine adds the decoder's to an unreadable image.
        const head = (line: string): string => (line.includes('unknown-error') ? line.replace(/(referred in <None>).*$/, '$1') : line);
        expect(head(ours[0]!)).toBe(head(theirs[0]!));
        continue;
      }
      const guid = sha1(url);
      expect(result).toEqual({ url, path: `full/${guid}.jpg`, checksum: expect.any(String), status: expected.status });
      const full = readFileSync(join(store, result!.path));
      expect(result!.checksum).toBe(md5(full));
      // A plain RGB JPEG is stored as it came in both: the same bytes, the same checksum.
      if (expected.checksum === expected.source_md5) expect(result!.checksum).toBe(expected.checksum);
      const size = await readImageSize(full);
      expect([src, size.format, size.width, size.height]).toEqual([src, 'jpeg', expected.full!.width, expected.full!.height]);
      for (const [name, thumb] of Object.entries(expected.thumbs!)) {
        const stored = await readImageSize(join(store, `thumbs/${name}/${guid}.jpg`));
        expect([src, name, stored.width, stored.height]).toEqual([src, name, thumb.width, thumb.height]);
      }
    }
    expect({ file_count: run.stats['file_count'], 'file_status_count/downloaded': run.stats['file_status_count/downloaded'] }).toEqual(oracle.stats);
  }, 60_000);
});

describe('ImagesPipeline beyond Scrapy', () => {
  it('keeps the formats IMAGES_KEEP_FORMATS lists, full image and thumbnails, with their own extensions', async () => {
    const urls = ['/images/rgb.webp', '/images/rgba.png', '/images/photo.jpg'].map((p) => site.url(p));
    class Keep extends Spider {
      static override name = 'keep';
      override async *start() {
        for (const url of urls) yield { image_urls: [url] };
      }
    }
    const { items } = await runCrawl(Keep, settings({ IMAGES_KEEP_FORMATS: ['webp', 'png'], IMAGES_THUMBS: { small: [50, 50] } }));
    const stored = new Map(items.map((item) => [(item['image_urls'] as string[])[0]!, (item['images'] as FileResult[])[0]!.path]));
    const paths = urls.map((url) => stored.get(url));
    expect(paths).toEqual([`full/${sha1(urls[0]!)}.webp`, `full/${sha1(urls[1]!)}.png`, `full/${sha1(urls[2]!)}.jpg`]);
    const webp = readFileSync(join(store, paths[0]!));
    expect(md5(webp)).toBe(md5(readFileSync(new URL('./fixtures/images/rgb.webp', import.meta.url))));
    expect((await readImageSize(join(store, `thumbs/small/${sha1(urls[0]!)}.webp`))).format).toBe('webp');
    expect((await readImageSize(join(store, `thumbs/small/${sha1(urls[1]!)}.png`))).format).toBe('png');
  });
});
