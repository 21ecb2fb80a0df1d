import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { Spider, type Response } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { treeSite } from './fixtures/tree-site.js';

const PAGES = 300;
let site: TestSite;
let redis: RedisServer;

beforeAll(async () => {
  [site, redis] = await Promise.all([startSite(treeSite(PAGES)), startRedis()]);
});
afterAll(async () => {
  await Promise.all([site.close(), redis.stop()]);
});
afterEach(async () => {
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
  site.reset();
});

function treeSpider(name = 'tree') {
  return class TreeSpider extends Spider {
    static override name = name;
    override startUrls = [site.url('/p/1')];
    override *parse(response: Response) {
      yield { n: Number(response.css('h1.n::text').get()) };
      for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
    }
  };
}

// Per-domain concurrency counts crawl-wide: raised so that it is not what decides which worker gets work.
const shared = (): Record<string, unknown> => ({ SCHEDULER: 'redis', REDIS_URL: redis.url, REDIS_LEASE_SECS: 5, CONCURRENT_REQUESTS: 8, CONCURRENT_REQUESTS_PER_DOMAIN: 64 });

describe('a crawl shared through Redis', () => {
  it('three workers crawl what one process crawls, each page once between them, and each ends finished', async () => {
    const Tree = treeSpider();
    const alone = await runCrawl(Tree);
    const fetchedAlone = site.hits.filter((path) => path.startsWith('/p/')).sort();
    site.reset();
    const results = await Promise.all([runCrawl(Tree, shared()), runCrawl(Tree, shared()), runCrawl(Tree, shared())]);
    for (const result of results) expect(result.reason).toBe('finished');
    const all = results.flatMap((result) => result.items.map((item) => item['n'] as number));
    const byNumber = (a: number, b: number): number => a - b;
    expect(all.sort(byNumber)).toEqual(alone.items.map((item) => item['n'] as number).sort(byNumber));
    // Every page, and the start URL twice (a start request is dontFilter, so the link back to it is new), as in one process.
    expect(new Set(all).size).toBe(PAGES);
    expect(site.hits.filter((path) => path.startsWith('/p/')).sort()).toEqual(fetchedAlone);
    // All three took part.
    for (const result of results) expect(result.items.length).toBeGreaterThan(10);
  }, 60_000); // a crawl alone, then three in-process workers: seconds, more on a loaded CI machine
});
