/**
 * `seine runspider … --workers N` (src/workers/): N worker processes over
 * one queue kept by the process the user started, against real sites on
 * 127.0.0.1. What a user notices: the same feed and the same counts as one
 * process, one stats dump, politeness over all workers, a dead worker's
 * requests crawled by the others, Ctrl-C and JOBDIR as with one process,
 * and a bad value as one line.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, logMessages, runSeine, startSeine } from '../cli/fixtures/run-seine.js';
import { dumpedStats, feedNumbers, spiderDir, startLinkedSite } from './fixtures.js';

let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  dir = spiderDir();
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUIET = ['-s', 'LOG_LEVEL=INFO', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0'];
/** For the tests that wait for `Scraped from` lines (DEBUG). */
const CHATTY = ['-s', 'LOG_LEVEL=DEBUG', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0'];
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);

/** The pids the workers log when they join (`Worker 1 (pid 123) crawls …`). */
function workerPids(stderr: string): number[] {
  return [...stderr.matchAll(/Worker \d+ \(pid (\d+)\) crawls/g)].map((match) => Number(match[1]));
}

describe('seine runspider --workers 2', () => {
  it('writes the same items and counts the same pages as one process, with one stats dump', async () => {
    const site = await startLinkedSite(150);
    try {
      const one = await runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-O', 'one.jsonl', ...QUIET], dir);
      const oneHits = site.hits.length;
      site.reset();
      const two = await runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-O', 'two.jsonl', '--workers', '2', ...QUIET], dir);
      expect(one.status).toBe(0);
      expect(two.status).toBe(0);
      expect(sorted(feedNumbers(join(dir, 'one.jsonl')))).toEqual(range(150));
      expect(sorted(feedNumbers(join(dir, 'two.jsonl')))).toEqual(sorted(feedNumbers(join(dir, 'one.jsonl'))));
      expect(site.hits.length).toBe(oneHits);
      const [a, b] = [dumpedStats(one.stderr), dumpedStats(two.stderr)];
      for (const key of ['item_scraped_count', 'response_received_count', 'downloader/request_count', 'downloader/response_count', 'downloader/response_status_count/200', 'dupefilter/filtered', 'scheduler/enqueued', 'scheduler/dequeued']) {
        expect([key, b[key]]).toEqual([key, a[key]]);
      }
      const messages = logMessages(two.stderr);
      expect(messages.filter((line) => line === 'Dumping seine stats:')).toHaveLength(1);
      expect(messages.filter((line) => /^Stored jsonlines feed \(150 items\)/.test(line))).toHaveLength(1);
      expect(two.stderr).toContain("'finish_reason': 'finished'");
      // Both workers crawled.
      expect(workerPids(two.stderr)).toHaveLength(2);
    } finally {
      await site.close();
    }
  }, 60_000);

  it('keeps CONCURRENT_REQUESTS_PER_DOMAIN over all workers, and spaces DOWNLOAD_DELAY over all of them', async () => {
    const site = await startLinkedSite(40, 150);
    try {
      const run = await runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-O', 'c.jsonl', '--workers', '2', '-s', 'CONCURRENT_REQUESTS_PER_DOMAIN=3', ...QUIET], dir);
      expect(run.status).toBe(0);
      expect(feedNumbers(join(dir, 'c.jsonl'))).toHaveLength(40);
      expect(site.inFlight.max).toBeLessThanOrEqual(3);
      expect(site.inFlight.max).toBe(3);
    } finally {
      await site.close();
    }
    const slow = await startLinkedSite(16, 5);
    try {
      const delayMs = 250;
      const run = await runSeine(['runspider', 'pages.ts', '-a', `site=${slow.url('')}`, '-O', 'd.jsonl', '--workers', '2', '-s', `DOWNLOAD_DELAY=${delayMs / 1000}`, '-s', 'RANDOMIZE_DOWNLOAD_DELAY=false', ...QUIET], dir);
      expect(run.status).toBe(0);
      expect(feedNumbers(join(dir, 'd.jsonl'))).toHaveLength(16);
      const at = slow.requests.map((hit) => hit.at);
      const gaps = at.slice(1).map((time, i) => time - at[i]!);
      // Two workers on their own would send pairs at once; kept apart, 16 requests take 15 delays. A worker's first
      // request may reach the site late (its first connection), shortening the gap after it: one such gap per worker.
      expect(at.at(-1)! - at[0]!).toBeGreaterThanOrEqual(15 * delayMs * 0.9);
      expect(gaps.filter((gap) => gap < delayMs / 2).length).toBeLessThanOrEqual(2);
      expect(slow.inFlight.max).toBe(1);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('keeps a DOWNLOAD_SLOTS rate over all workers', async () => {
    const site = await startLinkedSite(12, 5);
    try {
      const run = await runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-O', 'r.jsonl', '--workers', '2', '-s', 'DOWNLOAD_SLOTS={"127.0.0.1":{"rate":"5/s"}}', ...QUIET], dir);
      expect(run.status).toBe(0);
      expect(feedNumbers(join(dir, 'r.jsonl'))).toHaveLength(12);
      const at = site.requests.map((hit) => hit.at);
      // 5 a second over both workers: 12 starts take at least 11 intervals of 200 ms (unshared, each worker kept its own 5 a second: ~1.7 s).
      expect(at.at(-1)! - at[0]!).toBeGreaterThanOrEqual(11 * 200 * 0.9);
    } finally {
      await site.close();
    }
  }, 60_000);

  it('refuses a bad --workers value, or --workers with SCHEDULER=redis, in one line with status 1, before any request', async () => {
    const site = await startLinkedSite(3);
    try {
      const runs = await Promise.all([
        runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '--workers', '0', ...QUIET], dir),
        runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '--workers', 'abc', ...QUIET], dir),
        runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '--workers', '2', '-s', 'SCHEDULER=redis', ...QUIET], dir),
        runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-s', 'WORKERS=-1', ...QUIET], dir),
      ]);
      for (const run of runs) {
        expect(run.status).toBe(1);
        const errors = run.stderr.split('\n').filter((line) => /WORKERS/.test(line));
        expect(errors).toHaveLength(1);
        expect(run.stderr).not.toMatch(/\n\s+at /); // no stack
      }
      expect(runs[0]!.stderr).toContain('WORKERS must be a whole number of worker processes, 1 or more, got "0" (the command line): write e.g. --workers 2');
      expect(runs[1]!.stderr).toContain('got "abc"');
      expect(runs[2]!.stderr).toContain("with SCHEDULER = 'redis'");
      expect(site.hits).toEqual([]);
    } finally {
      await site.close();
    }
  }, 60_000);

  it('crawls again, with the other worker, what a killed worker held: every page once in the feed, one error line, status 1', async () => {
    const site = await startLinkedSite(120, 40);
    try {
      const run = startSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-O', 'k.jsonl', '--workers', '2', ...CHATTY], dir);
      let stderr = '';
      run.child.stderr!.on('data', (chunk: string) => (stderr += chunk));
      await run.waitForLog(/Worker 2 \(pid \d+\) crawls[\s\S]*Worker 1 \(pid \d+\) crawls|Worker 1 \(pid \d+\) crawls[\s\S]*Worker 2 \(pid \d+\) crawls/);
      await run.waitForLog(/Scraped from[\s\S]*Scraped from[\s\S]*Scraped from/);
      process.kill(workerPids(stderr)[0]!, 'SIGKILL');
      const done = await run.done;
      expect(done.status).toBe(1);
      const errors = logMessages(done.stderr).filter((line) => /^Worker \d+ \(pid \d+\) was killed \(SIGKILL\)/.test(line));
      expect(errors).toHaveLength(1);
      expect(sorted(feedNumbers(join(dir, 'k.jsonl')))).toEqual(range(120));
      expect(done.stderr).toContain("'finish_reason': 'finished'");
    } finally {
      await site.close();
    }
  }, 60_000);

  it('reports a worker that fails at its start in one line, and crawls everything with the others', async () => {
    const site = await startLinkedSite(60);
    try {
      // The spider throws in worker 1 only (the variable that marks a worker is internal; the test reads it to pick one).
      writeFileSync(
        join(dir, 'fragile.ts'),
        readFileSync(join(dir, 'pages.ts'), 'utf8')
          .replace("static name = 'pages';", "static name = 'fragile';\n  constructor(args?: Record<string, string>) {\n    super(args);\n    if (process.env.SEINE_WORKER_OF === '1') throw new Error('no luck in worker 1');\n  }"),
      );
      const run = await runSeine(['runspider', 'fragile.ts', '-a', `site=${site.url('')}`, '-O', 'f.jsonl', '--workers', '2', ...QUIET], dir);
      expect(run.status).toBe(1);
      expect(logMessages(run.stderr).filter((line) => /^Worker 1 \(pid \d+\) stopped with exit status 1$/.test(line))).toHaveLength(1);
      expect(sorted(feedNumbers(join(dir, 'f.jsonl')))).toEqual(range(60));
      expect(run.stderr).toContain("'finish_reason': 'finished'");
    } finally {
      await site.close();
    }
  }, 60_000);

  it('closes at CLOSESPIDER_ITEMCOUNT counted over all workers', async () => {
    const site = await startLinkedSite(200, 50);
    try {
      const run = await runSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-O', 'l.jsonl', '--workers', '2', '-s', 'CLOSESPIDER_ITEMCOUNT=20', ...QUIET], dir);
      expect(run.status).toBe(0);
      expect(run.stderr).toContain("'finish_reason': 'closespider_itemcount'");
      const items = feedNumbers(join(dir, 'l.jsonl'));
      // Requests already under way finish, as in one process: a few more than 20, far from the 200 pages.
      expect(items.length).toBeGreaterThanOrEqual(20);
      expect(items.length).toBeLessThan(100);
      expect(new Set(items).size).toBe(items.length);
    } finally {
      await site.close();
    }
  }, 60_000);

  it('stops every worker gracefully on one SIGINT: one message, a complete JSON feed, finish reason shutdown', async () => {
    const site = await startLinkedSite(400, 100);
    try {
      const run = startSeine(['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-O', 'i.json', '--workers', '2', ...CHATTY], dir);
      await run.waitForLog(/Scraped from[\s\S]*Scraped from[\s\S]*Scraped from[\s\S]*Scraped from/);
      run.child.kill('SIGINT');
      const done = await run.done;
      expect(done.status).toBe(0);
      expect(logMessages(done.stderr).filter((line) => line.startsWith('Received SIGINT'))).toHaveLength(1);
      const items = JSON.parse(readFileSync(join(dir, 'i.json'), 'utf8')) as Array<{ n: number }>;
      expect(items.length).toBeGreaterThan(3);
      expect(items.length).toBeLessThan(400);
      const stats = dumpedStats(done.stderr);
      expect(stats['item_scraped_count']).toBe(items.length);
      expect(done.stderr).toContain("'finish_reason': 'shutdown'");
      // Nothing went on after the close: every page the site answered reached the feed.
      expect(site.hits.length).toBe(items.length);
    } finally {
      await site.close();
    }
  }, 60_000);

  it('resumes a JOBDIR crawl whose coordinator was killed with SIGKILL: every page exactly once over both runs', async () => {
    const site = await startLinkedSite(200, 30);
    try {
      const args = ['runspider', 'pages.ts', '-a', `site=${site.url('')}`, '-o', 'j.jsonl', '--workers', '2', '-s', 'JOBDIR=job', ...CHATTY];
      const first = startSeine(args, dir);
      await first.waitForLog(/Scraped from[\s\S]*Scraped from[\s\S]*Scraped from[\s\S]*Scraped from[\s\S]*Scraped from/);
      first.child.kill('SIGKILL');
      await first.done;
      const before = feedNumbers(join(dir, 'j.jsonl')).length;
      expect(before).toBeLessThan(200);
      const second = await runSeine(args, dir);
      expect(second.status).toBe(0);
      expect(second.stderr).toMatch(/Resuming crawl \(\d+ requests scheduled\)/);
      expect(sorted(feedNumbers(join(dir, 'j.jsonl')))).toEqual(range(200));
    } finally {
      await site.close();
    }
  }, 60_000);
});
