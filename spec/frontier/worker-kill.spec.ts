import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ensureBuilt, logMessages, runSeine, startSeine, type RunningSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { TREE_SPIDER_SOURCE, treeSite } from './fixtures/tree-site.js';

/**
 * Three real worker processes share one crawl of a 2,000-page site through a
 * real Redis. One is SIGKILLed mid-crawl, another is stopped with Ctrl-C:
 * nothing is lost, nothing is fetched twice except what the killed worker
 * held, and the others finish without waiting longer than the lease.
 */

const PAGES = 2000;
const LEASE_SECS = 3;
const CONCURRENCY = 8;
let site: TestSite;
let redis: RedisServer;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  [site, redis] = await Promise.all([startSite(treeSite(PAGES, 4)), startRedis()]);
  dir = mkdtempSync(join(tmpdir(), 'seine-frontier-kill-'));
  writeFileSync(join(dir, 'tree.ts'), TREE_SPIDER_SOURCE.replace('process.env.TREE_START_URL', JSON.stringify(site.url('/p/1'))));
}, 60_000);
afterAll(async () => {
  await Promise.all([site.close(), redis.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

async function flush(): Promise<void> {
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
  site.reset();
  // -o appends: each test starts with no feed.
  for (const name of ['w1', 'w2', 'w3']) rmSync(join(dir, `${name}.jsonl`), { force: true });
}

function workerArgs(name: string, leaseSecs = LEASE_SECS): string[] {
  return [
    'runspider', 'tree.ts', '-o', `${name}.jsonl`,
    '-s', 'SCHEDULER=redis', '-s', `REDIS_URL=${redis.url}`, '-s', `REDIS_LEASE_SECS=${leaseSecs}`,
    '-s', `CONCURRENT_REQUESTS=${CONCURRENCY}`, '-s', 'CONCURRENT_REQUESTS_PER_DOMAIN=100',
    '-s', `USER_AGENT=${name}`, '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOG_LEVEL=INFO',
  ];
}

const pageNumbers = (feed: string): number[] =>
  readFileSync(join(dir, feed), 'utf8').split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { n: number }).n);

const byNumber = (a: number, b: number): number => a - b;

/** Each fetch of a page: who fetched it (the worker's User-Agent) and when. */
function fetches(): Array<{ path: string; worker: string; at: number }> {
  return site.requests.filter((hit) => hit.path.startsWith('/p/')).map((hit) => ({ path: hit.path, worker: String(hit.headers['user-agent']), at: hit.at }));
}

async function waitForPages(count: number): Promise<void> {
  while (site.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

let baseline: { items: number[]; fetched: string[] };

describe('workers sharing a crawl through Redis', () => {
  beforeAll(async () => {
    // The single-process crawl the shared ones must equal (the start URL is fetched twice: a start request is dontFilter).
    const alone = await runSeine(['runspider', 'tree.ts', '-o', 'alone.jsonl', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOG_LEVEL=INFO'], dir);
    expect(alone.status).toBe(0);
    baseline = { items: pageNumbers('alone.jsonl').sort(byNumber), fetched: fetches().map((f) => f.path).sort() };
    expect(new Set(baseline.items).size).toBe(PAGES);
  }, 120_000);

  it('one of three workers is SIGKILLed mid-crawl: the feeds together equal one process crawl, only its leased pages are fetched twice, the others finish within the lease time', async () => {
    await flush();
    const workers: RunningSeine[] = ['w1', 'w2', 'w3'].map((name) => startSeine(workerArgs(name), dir));
    await waitForPages(PAGES / 3);
    const victim = workers[1]!;
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    const killed = await victim.done;
    expect(killed.signal).toBe('SIGKILL');
    const [first, third] = await Promise.all([workers[0]!.done, workers[2]!.done]);
    const exitedAt = Date.now();
    for (const run of [first, third]) {
      expect(run.status).toBe(0);
      expect(logMessages(run.stderr)).toContain('Spider closed (finished)');
    }

    const all = fetches();
    const byPath = new Map<string, Array<{ worker: string; at: number }>>();
    for (const { path, worker, at } of all) byPath.set(path, [...(byPath.get(path) ?? []), { worker, at }]);
    // Pages fetched more often than in one process: each was first fetched by the killed worker,
    // which held at most 2 × CONCURRENT_REQUESTS leases (its buffer and its work in progress).
    const expectedCount = new Map<string, number>();
    for (const path of baseline.fetched) expectedCount.set(path, (expectedCount.get(path) ?? 0) + 1);
    const refetched = [...byPath].filter(([path, hits]) => hits.length > (expectedCount.get(path) ?? 0));
    for (const [, hits] of refetched) {
      expect(hits.length).toBe(2);
      expect(hits[0]!.worker).toBe('w2');
      expect(hits[1]!.worker).not.toBe('w2');
      // Taken again once its lease expired: not before the kill, not much later than the lease time after it.
      expect(hits[1]!.at).toBeGreaterThanOrEqual(killedAt - 50);
      expect(hits[1]!.at).toBeLessThanOrEqual(killedAt + LEASE_SECS * 1000 + 3000);
    }
    expect(refetched.length).toBeLessThanOrEqual(2 * CONCURRENCY);
    expect([...byPath.keys()].sort()).toEqual([...new Set(baseline.fetched)].sort());

    // Nothing lost: every page's item is in one of the three feeds; a page is there twice only when
    // the killed worker wrote its item and died before Redis had its acknowledgement (docs/distributed.md).
    const union = [...pageNumbers('w1.jsonl'), ...pageNumbers('w2.jsonl'), ...pageNumbers('w3.jsonl')].sort(byNumber);
    expect(new Set(union)).toEqual(new Set(baseline.items));
    const extra = union.length - baseline.items.length;
    expect(extra).toBeGreaterThanOrEqual(0);
    expect(extra).toBeLessThanOrEqual(refetched.length);
    // The survivors did not wait for anything but the lease: they left soon after the last page.
    const lastFetch = Math.max(...all.map((f) => f.at));
    expect(exitedAt - lastFetch).toBeLessThan(3000);
    expect(exitedAt - killedAt).toBeLessThan(60_000);
  }, 120_000);

  it('a worker stopped with Ctrl-C gives its leases back at once: the others take them long before the lease would expire, and no page is fetched twice', async () => {
    await flush();
    const workers = ['w1', 'w2', 'w3'].map((name) => startSeine(workerArgs(name, 60), dir));
    await waitForPages(PAGES / 3);
    workers[1]!.child.kill('SIGINT');
    const stopped = await workers[1]!.done;
    expect(stopped.status).toBe(0);
    expect(logMessages(stopped.stderr)).toContain('Spider closed (shutdown)');
    const started = Date.now();
    const [first, third] = await Promise.all([workers[0]!.done, workers[2]!.done]);
    for (const run of [first, third]) expect(run.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000); // a 60 s lease was not waited for

    const fetched = fetches().map((f) => f.path).sort();
    expect(fetched).toEqual(baseline.fetched);
    const union = [...pageNumbers('w1.jsonl'), ...pageNumbers('w2.jsonl'), ...pageNumbers('w3.jsonl')].sort(byNumber);
    expect(union).toEqual(baseline.items);
  }, 120_000);
});
