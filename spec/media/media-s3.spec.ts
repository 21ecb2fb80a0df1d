import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FilesPipeline, Spider, type FileResult } from '../../src/index.js';
import { runCrawl } from '../helpers/site-server.js';
import { startImageSite, type ImageSite } from '../helpers/image-site.js';
import { startS3Server, type S3TestServer } from '../helpers/s3-server.js';

/** The media pipelines storing to an S3-compatible server (s3rver on loopback), as docs/media.md shows. */

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');
const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

let site: ImageSite;
let s3: S3TestServer;

beforeAll(async () => {
  site = await startImageSite();
  s3 = await startS3Server();
});
afterAll(async () => {
  await site.close();
  await s3.close();
});

/** The bytes s3rver keeps for `key` of the bucket. */
function object(key: string): Buffer {
  return readFileSync(join(s3.root, s3.bucket, `${key}._S3rver_object`));
}

function awsSettings(): Record<string, unknown> {
  const settings = s3.settings();
  return Object.fromEntries(['AWS_ENDPOINT_URL', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION_NAME'].map((name) => [name, settings.get(name)]));
}

function spiderFor(field: string, paths: string[]) {
  return class MediaItems extends Spider {
    static override name = 'media';
    override async *start() {
      yield { [field]: paths.map((path) => site.url(path)) };
    }
  };
}

describe('FilesPipeline and ImagesPipeline to s3://', () => {
  it('stores images and thumbnails under the prefix, then finds them uptodate by the objects\' dates and ETags', async () => {
    const settings = { ...awsSettings(), ITEM_PIPELINES: { ImagesPipeline: 1 }, IMAGES_STORE: s3.uri('shop/images'), IMAGES_THUMBS: { small: [50, 50] } };
    const Images = spiderFor('image_urls', ['/images/photo.jpg', '/images/rgba.png']);
    const first = await runCrawl(Images, settings);
    const results = first.items[0]!['images'] as FileResult[];
    expect(results.map((r) => [r.path, r.status])).toEqual([
      [`full/${sha1(site.url('/images/photo.jpg'))}.jpg`, 'downloaded'],
      [`full/${sha1(site.url('/images/rgba.png'))}.jpg`, 'downloaded'],
    ]);
    for (const result of results) {
      expect(md5(object(`shop/images/${result.path}`))).toBe(result.checksum);
      expect(existsSync(join(s3.root, s3.bucket, `shop/images/${result.path.replace('full/', 'thumbs/small/')}._S3rver_object`))).toBe(true);
    }
    const second = await runCrawl(Images, settings);
    // The ETag of a single-part upload is its MD5: the same checksum without downloading anything.
    expect(second.items[0]!['images']).toEqual(results.map((r) => ({ ...r, status: 'uptodate' })));
  });

  it('makes a store that is down one WARNING per file, never a hang, and the crawl finishes', async () => {
    const down = await startS3Server();
    const uri = down.uri('files');
    // Tried twice, 10 ms apart, rather than thrice over 3 s.
    class QuickRetryFiles extends FilesPipeline {
      protected override storeRetry = { attempts: 2, firstDelayMs: 10 };
    }
    const settings = { ...awsSettings(), AWS_ENDPOINT_URL: down.endpoint, ITEM_PIPELINES: new Map([[QuickRetryFiles, 1]]), FILES_STORE: uri, STORE_TIMEOUT: 2 };
    await down.close();
    const url = site.url('/images/photo.jpg');
    const { items, logs, reason, stats } = await runCrawl(spiderFor('file_urls', ['/images/photo.jpg']), settings);
    expect(reason).toBe('finished');
    expect(items[0]!['files']).toEqual([]);
    const warnings = logs.filter((l) => l.level === 'WARNING' && l.message.startsWith('File (store-error)')).map((l) => l.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`<GET ${url}> referred in <None>: Could not store s3://${down.bucket}/files/full/${sha1(url)}.jpg`);
    expect(stats['file_store_error_count']).toBe(1);
    expect(stats['file_store_retry_count']).toBe(1);
  }, 60_000);
});
