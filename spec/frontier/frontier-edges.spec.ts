import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '../helpers/free-port.js';
import { Redis } from 'ioredis';
import { Spider, type Response } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { treeSite } from './fixtures/tree-site.js';

/** The shared frontier's edges, with real workers (crawlers in this process) and a real Redis that goes away. */

const PAGES = 200;
let site: TestSite;
let redis: RedisServer;

beforeAll(async () => {
  [site, redis] = await Promise.all([startSite(treeSite(PAGES, 3)), startRedis({ persistent: true })]);
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

function treeSpider() {
  return class TreeSpider extends Spider {
    static override name = 'tree';
    override startUrls = [site.url('/p/1')];
    override *parse(response: Response) {
      yield { n: Number(response.css('h1.n::text').get()) };
      for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
    }
  };
}

const shared = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  SCHEDULER: 'redis',
  REDIS_URL: redis.url,
  REDIS_LEASE_SECS: 5,
  CONCURRENT_REQUESTS: 4,
  CONCURRENT_REQUESTS_PER_DOMAIN: 64,
  ...extra,
});

const numbers = (items: Array<Record<string, unknown>>): number[] => items.map((item) => item['n'] as number).sort((a, b) => a - b);
const everyPage = (): number[] => [1, ...Array.from({ length: PAGES }, (_, i) => i + 1)]; // the start URL twice, as in one process


describe('the shared frontier when things go wrong', () => {
  it('Redis restarts mid-crawl: the workers wait, reconnect, and lose nothing', async () => {
    const Tree = treeSpider();
    const crawls = Promise.all([runCrawl(Tree, shared()), runCrawl(Tree, shared())]);
    while (site.hits.length < PAGES / 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await redis.restart(1500);
    const results = await crawls;
    for (const result of results) expect(result.reason).toBe('finished');
    expect(numbers(results.flatMap((result) => result.items))).toEqual(everyPage());
    const lines = results.flatMap((result) => result.lines);
    expect(lines.some((line) => line.startsWith(`Lost the connection to Redis at ${redis.url}`))).toBe(true);
    expect(lines).toContain(`Reconnected to Redis at ${redis.url}`);
  }, 60_000);

  it('DOWNLOAD_DELAY holds for the crawl as a whole: two workers fetch one domain no faster than one would', async () => {
    const Tree = treeSpider();
    const settings = shared({ DOWNLOAD_DELAY: 0.15, RANDOMIZE_DOWNLOAD_DELAY: false, CLOSESPIDER_ITEMCOUNT: 6 });
    const results = await Promise.all([runCrawl(Tree, settings), runCrawl(Tree, settings)]);
    const times = site.requests.filter((hit) => hit.path.startsWith('/p/')).map((hit) => hit.at);
    expect(times.length).toBeGreaterThanOrEqual(6);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(120); // 150 ms, less the jitter between Redis's clock and the site's
    const agents = results.map((result) => result.stats['downloader/request_count'] ?? 0);
    expect(agents.every((count) => (count as number) > 0)).toBe(true);
  }, 60_000);

  it('CONCURRENT_REQUESTS_PER_DOMAIN holds for the crawl as a whole: three workers never have more requests in flight on one domain', async () => {
    const Tree = treeSpider();
    const settings = shared({ CONCURRENT_REQUESTS_PER_DOMAIN: 2, CONCURRENT_REQUESTS: 8 });
    const results = await Promise.all([runCrawl(Tree, settings), runCrawl(Tree, settings), runCrawl(Tree, settings)]);
    expect(numbers(results.flatMap((result) => result.items))).toEqual(everyPage());
    expect(site.inFlight.max).toBeLessThanOrEqual(2);
  }, 60_000);

  it('REDIS_DUPEFILTER=bloom: the same pages, the fingerprints kept as bits', async () => {
    const Tree = treeSpider();
    const settings = shared({ REDIS_DUPEFILTER: 'bloom', REDIS_BLOOM_CAPACITY: 10_000 });
    const results = await Promise.all([runCrawl(Tree, settings), runCrawl(Tree, settings)]);
    expect(numbers(results.flatMap((result) => result.items))).toEqual(everyPage());
    const client = new Redis(redis.url);
    expect(await client.exists('seine:{tree}:bloom')).toBe(1);
    expect(await client.exists('seine:{tree}:seen')).toBe(0);
    expect(Number(await client.strlen('seine:{tree}:bloom'))).toBeLessThanOrEqual(Math.ceil(143_776 / 8) + 1); // m for 10,000 at 0.1 %
    client.disconnect();
  }, 60_000);

  it('REDIS_ITEMS: every item once in the shared list, written with its request', async () => {
    const Tree = treeSpider();
    const results = await Promise.all([runCrawl(Tree, shared({ REDIS_ITEMS: true })), runCrawl(Tree, shared({ REDIS_ITEMS: true }))]);
    const client = new Redis(redis.url);
    const listed = (await client.lrange('seine:{tree}:items', 0, -1)).map((line) => JSON.parse(line) as Record<string, unknown>);
    client.disconnect();
    expect(numbers(listed)).toEqual(numbers(results.flatMap((result) => result.items)));
    expect(numbers(listed)).toEqual(everyPage());
  }, 60_000);

  it('a second run of a finished crawl fetches nothing and says how to start over', async () => {
    const Tree = treeSpider();
    await runCrawl(Tree, shared());
    site.reset();
    const again = await runCrawl(Tree, shared());
    expect(again.reason).toBe('finished');
    expect(site.hits).toEqual([]);
    expect(again.lines).toContain('This crawl has finished (nothing queued or in flight): start() already ran, so this worker fetches nothing (`seine frontier tree clear` discards it so that the next run starts over)');
  }, 60_000);

  it('a worker that joins a crawl in progress says so, with what is left, and helps finish it', async () => {
    const Tree = treeSpider();
    const settings = shared({ DOWNLOAD_DELAY: 0.01, RANDOMIZE_DOWNLOAD_DELAY: false });
    const first = runCrawl(Tree, settings);
    // start() has run once the start URL's page is in: its links are queued.
    while (site.hits.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await runCrawl(Tree, settings);
    const results = [await first, second];
    const joined = second.lines.find((line) => line.startsWith('Joining a crawl in progress'));
    expect(joined).toMatch(/^Joining a crawl in progress \(queued: \d+, in flight: \d+\): another worker ran start\(\); this worker takes requests from the shared queue \(`seine frontier tree clear` would discard the shared crawl so that the next run starts over\)$/);
    expect(joined).not.toMatch(/queued: 0, in flight: 0/);
    expect(second.lines.some((line) => line.startsWith('This crawl has finished'))).toBe(false);
    expect(numbers(results.flatMap((result) => result.items))).toEqual(everyPage());
  }, 60_000);

  it('Redis unreachable at the start: the run fails at once with one line that says where, and fetches nothing', async () => {
    const port = await freePort();
    const started = Date.now();
    await expect(runCrawl(treeSpider(), shared({ REDIS_URL: `redis://:secret@127.0.0.1:${port}/0`, REDIS_CONNECT_TIMEOUT: 1 }))).rejects.toThrow(
      new RegExp(`^Cannot open the crawl: Cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/0: connect ECONNREFUSED 127\\.0\\.0\\.1:${port} — start Redis there or set REDIS_URL$`),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(site.hits).toEqual([]);
  });

  it.each([
    [{ SCHEDULER: 'redis-cluster' }, /^Setting SCHEDULER is "redis-cluster".*which seine does not know: use 'redis'/],
    [{ SCHEDULER: 'redis', REDIS_URL: 'localhost:6379' }, /^Setting REDIS_URL is "localhost:6379".*: its scheme must be redis:\/\/ or rediss:\/\//],
    [{ SCHEDULER: 'redis', REDIS_URL: 'not a url' }, /^Setting REDIS_URL is "not a url".*which is not a URL: write it as redis:\/\/host:6379\/0/],
    [{ SCHEDULER: 'redis', REDIS_LEASE_SECS: 0.1 }, /^Setting REDIS_LEASE_SECS must be at least 1, got 0.1/],
    [{ SCHEDULER: 'redis', REDIS_DUPEFILTER: 'cuckoo' }, /^Setting REDIS_DUPEFILTER is "cuckoo".*use 'set'/],
    [{ SCHEDULER: 'redis', REDIS_DUPEFILTER: 'bloom', REDIS_BLOOM_CAPACITY: 1e10 }, /more than the 2\^32 a Redis string holds/],
  ])('a wrong setting %j is one clear error before anything is fetched', async (settings, message) => {
    await expect(runCrawl(treeSpider(), { REDIS_URL: redis.url, ...settings })).rejects.toThrow(message);
    expect(site.hits).toEqual([]);
  });
});
