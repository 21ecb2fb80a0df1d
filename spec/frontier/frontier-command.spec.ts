import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ensureBuilt, runSeine, startSeine, type RunningSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { TREE_SPIDER_SOURCE, treeSite } from './fixtures/tree-site.js';

/**
 * `seine frontier tree status|pause|resume|clear`, run as a user would run it
 * in a second terminal, against a real worker process and a real Redis.
 */

const PAGES = 300;
let site: TestSite;
let redis: RedisServer;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  // 30 ms a page at concurrency 2: a crawl of ~5 s, long enough to steer.
  [site, redis] = await Promise.all([startSite(treeSite(PAGES, 30)), startRedis()]);
  dir = mkdtempSync(join(tmpdir(), 'seine-frontier-command-'));
  writeFileSync(join(dir, 'tree.ts'), TREE_SPIDER_SOURCE.replace('process.env.TREE_START_URL', JSON.stringify(site.url('/p/1'))));
}, 60_000);
afterAll(async () => {
  await Promise.all([site.close(), redis.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const frontier = (...args: string[]) => runSeine(['frontier', 'tree', ...args, '-s', `REDIS_URL=${redis.url}`], dir);

async function statusJson(): Promise<Record<string, unknown> & { stats: Record<string, unknown> }> {
  const run = await frontier('status', '--json');
  expect(run).toMatchObject({ status: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, unknown> & { stats: Record<string, unknown> };
}

function startWorker(feed: string): RunningSeine {
  rmSync(join(dir, feed), { force: true });
  return startSeine(
    ['runspider', 'tree.ts', '-o', feed, '-s', 'SCHEDULER=redis', '-s', `REDIS_URL=${redis.url}`, '-s', 'REDIS_LEASE_SECS=3',
      '-s', 'CONCURRENT_REQUESTS=2', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOG_LEVEL=INFO'],
    dir,
  );
}

const pagesFetched = (): number => site.requests.filter((hit) => hit.path.startsWith('/p/')).length;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('seine frontier', () => {
  beforeAll(async () => {
    const client = new Redis(redis.url);
    await client.flushall();
    client.disconnect();
  });

  it('status of a crawl no worker has started says so, and how to start one', async () => {
    const run = await frontier('status');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Crawl tree at ${redis.url} (keys seine:{tree}:*)`);
    expect(run.stdout).toMatch(/^ {2}State: +not started$/m);
    expect(run.stdout).toContain('Nothing in Redis for this crawl yet: start a worker with `seine crawl tree -s SCHEDULER=redis`');
    expect((await statusJson()).state).toBe('not started');
  });

  it('watches a running crawl, refuses to clear it under a live worker, pauses and resumes it; the finished crawl reports merged stats', async () => {
    site.reset();
    const worker = startWorker('run1.jsonl');
    await waitFor(() => pagesFetched() >= 20, '20 pages');

    const running = await statusJson();
    expect(running.state).toBe('running');
    expect(running.workersAlive).toHaveLength(1);
    expect(running.start).toMatchObject({ state: expect.stringMatching(/^(running|done)$/) });
    expect(running.done as number).toBeGreaterThan(0);
    expect((running.queued as number) + (running.leased as number)).toBeGreaterThan(0);

    const refused = await frontier('clear');
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^seine: 1 worker is still sharing the crawl tree \([^)]+\): stop them first \(Ctrl-C\), or add --force to clear it under them\n$/);

    const paused = await frontier('pause');
    expect(paused.status).toBe(0);
    expect(paused.stdout).toContain('Paused the crawl tree: 1 live worker takes no new request and waits');
    // What was in flight or already leased finishes; then nothing more is fetched while the crawl is paused.
    await sleep(1500);
    const atPause = pagesFetched();
    await sleep(1500);
    expect(pagesFetched()).toBe(atPause);
    expect(atPause).toBeLessThan(PAGES);
    const whilePaused = await statusJson();
    expect(whilePaused.state).toBe('paused');
    expect(whilePaused.workersAlive).toHaveLength(1);

    expect((await frontier('resume')).status).toBe(0);
    const result = await worker.done;
    expect(result.status).toBe(0);
    const items = readFileSync(join(dir, 'run1.jsonl'), 'utf8').trim().split('\n');
    expect(new Set(items).size).toBe(PAGES);

    const finished = await statusJson();
    expect(finished).toMatchObject({ state: 'finished', queued: 0, leased: 0, seen: PAGES, workersAlive: [], workersJoined: 1, statsOf: 1, itemsScraped: PAGES + 1, start: { state: 'done', outputs: null, owner: null } });
    // PAGES + 1 items: the start request is dontFilter, so /p/1 is fetched again when page 2 links back to it.
    expect(finished.stats).toMatchObject({ item_scraped_count: PAGES + 1, finish_reason: 'finished' });
    expect(typeof finished.stats.finish_time).toBe('string');
    const text = await frontier('status');
    expect(text.stdout).toMatch(/^ {2}State: +finished$/m);
    expect(text.stdout).toMatch(new RegExp(`^ {2}Items: +${PAGES + 1} scraped$`, 'm'));
    expect(text.stdout).toMatch(/^ {2}Workers: +0 alive of 1 that joined$/m);
    expect(text.stdout).toContain('Stats of its one worker:');
    expect(text.stdout).toContain(`'item_scraped_count': ${PAGES + 1},`);
    expect(text.stdout).toMatch(/'start_time': datetime\.datetime\(\d{4}, /);
  }, 60_000);

  it('a finished crawl run again fetches nothing; after clear it starts over', async () => {
    site.reset();
    const again = await startWorker('run2.jsonl').done;
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('INFO: This crawl has finished (nothing queued or in flight): start() already ran, so this worker fetches nothing (`seine frontier tree clear` discards it so that the next run starts over)\n');
    expect(pagesFetched()).toBe(0);

    const cleared = await frontier('clear');
    expect(cleared.status).toBe(0);
    expect(cleared.stdout).toMatch(new RegExp(`^Cleared the crawl tree: deleted \\d+ keys \\(seine:\\{tree\\}:\\*\\) at ${redis.url.replace(/[./]/g, '\\$&')}\\n$`));
    expect((await statusJson()).state).toBe('not started');
    const client = new Redis(redis.url);
    expect(await client.keys('seine:{tree}:*')).toEqual([]);
    client.disconnect();

    const fresh = await startWorker('run3.jsonl').done;
    expect(fresh.status).toBe(0);
    expect(new Set(readFileSync(join(dir, 'run3.jsonl'), 'utf8').trim().split('\n')).size).toBe(PAGES);
  }, 60_000);

  it('clear --force under a paused worker: the worker, left with an empty frontier, finishes instead of waiting', async () => {
    await frontier('clear');
    site.reset();
    const worker = startWorker('run4.jsonl');
    await waitFor(() => pagesFetched() >= 20, '20 pages');
    expect((await frontier('pause')).status).toBe(0);
    await sleep(1000);
    const forced = await frontier('clear', '--force');
    expect(forced.status).toBe(0);
    expect(forced.stdout).toMatch(/^Cleared the crawl tree: deleted \d+ keys/);
    const result = await worker.done;
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("'finish_reason': 'finished'");
  }, 60_000);

  it('an unreachable Redis, a wrong action, a wrong REDIS_URL: one line each, no stack trace', async () => {
    const down = await runSeine(['frontier', 'tree', 'status', '-s', 'REDIS_URL=redis://127.0.0.1:1/0', '-s', 'REDIS_CONNECT_TIMEOUT=1'], dir);
    expect(down.status).toBe(1);
    expect(down.stdout).toBe('');
    expect(down.stderr).toBe('seine: Cannot reach Redis at redis://127.0.0.1:1/0: connect ECONNREFUSED 127.0.0.1:1 — start Redis there or set REDIS_URL\n');

    const secret = await runSeine(['frontier', 'tree', 'pause', '-s', 'REDIS_URL=redis://:hunter2@127.0.0.1:1/0', '-s', 'REDIS_CONNECT_TIMEOUT=1'], dir);
    expect(secret.status).toBe(1);
    expect(secret.stderr).toContain('redis://:***@127.0.0.1:1/0');
    expect(secret.stderr).not.toContain('hunter2');

    const action = await runSeine(['frontier', 'tree', 'stop'], dir);
    expect(action.status).toBe(2);
    expect(action.stderr).toBe(`seine: invalid values: Argument: action, Given: "stop", Choices: "status", "pause", "resume", "clear" — run 'seine frontier --help' for usage\n`);

    const scheme = await runSeine(['frontier', 'tree', 'status', '-s', 'REDIS_URL=http://127.0.0.1:6379'], dir);
    expect(scheme.status).toBe(1);
    expect(scheme.stderr).toBe('seine: Setting REDIS_URL is "http://127.0.0.1:6379/" (from -s REDIS_URL=http://127.0.0.1:6379): its scheme must be redis:// or rediss://\n');
  }, 30_000);
});
