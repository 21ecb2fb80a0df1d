import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Spider } from '../../src/index.js';
import { runCrawl } from '../helpers/site-server.js';
import { startImageSite, type ImageSite } from '../helpers/image-site.js';

/**
 * FILES_STORE_S3_ACL and IMAGES_STORE_S3_ACL reach S3 as the x-amz-acl
 * header of every media object (s3rver ignores ACLs, so this endpoint is a
 * loopback server that records the puts and answers as S3 does).
 */

let site: ImageSite;
let endpoint: Server;
const puts: Array<{ path: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  site = await startImageSite();
  endpoint = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'PUT') {
        puts.push({ path: request.url!, headers: request.headers });
        response.writeHead(200, { ETag: '"0"' }).end();
      } else {
        response.writeHead(404).end(); // HEAD of a key never stored: download it
      }
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await site.close();
  await new Promise((resolve) => endpoint.close(resolve));
});

const settings = (extra: Record<string, unknown>) => ({
  AWS_ENDPOINT_URL: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`,
  AWS_ACCESS_KEY_ID: 'key',
  AWS_SECRET_ACCESS_KEY: 'secret',
  ...extra,
});

function spiderFor(field: string) {
  return class AclItems extends Spider {
    static override name = 'acl';
    override async *start() {
      yield { [field]: [site.url('/images/photo.jpg')] };
    }
  };
}

describe('the ACL of media objects on S3', () => {
  it("is Scrapy's 'private' by default, and FILES_STORE_S3_ACL's value when set", async () => {
    puts.length = 0;
    await runCrawl(spiderFor('file_urls'), settings({ ITEM_PIPELINES: { FilesPipeline: 1 }, FILES_STORE: 's3://bucket/files' }));
    expect(puts.map((put) => [put.path.split('/').slice(0, 4).join('/'), put.headers['x-amz-acl']])).toEqual([['/bucket/files/full', 'private']]);

    puts.length = 0;
    await runCrawl(spiderFor('file_urls'), settings({ ITEM_PIPELINES: { FilesPipeline: 1 }, FILES_STORE: 's3://bucket/files', FILES_STORE_S3_ACL: 'public-read' }));
    expect(puts.map((put) => put.headers['x-amz-acl'])).toEqual(['public-read']);
  });

  it('is IMAGES_STORE_S3_ACL for images and their thumbnails', async () => {
    puts.length = 0;
    const extra = { ITEM_PIPELINES: { ImagesPipeline: 1 }, IMAGES_STORE: 's3://bucket/images', IMAGES_THUMBS: { small: [50, 50] }, IMAGES_STORE_S3_ACL: 'public-read' };
    await runCrawl(spiderFor('image_urls'), settings(extra));
    expect(puts.map((put) => [put.path.split('/')[3], put.headers['x-amz-acl']]).sort()).toEqual([
      ['full', 'public-read'],
      ['thumbs', 'public-read'],
    ]);
  });
});
