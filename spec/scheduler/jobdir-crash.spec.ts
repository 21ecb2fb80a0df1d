import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, logMessages, runSeine, startSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type TestSite } from '../helpers/site-server.js';

/**
 * Crash-safe JOBDIR, through the real binary: a crawl of a few hundred
 * pages is killed with SIGKILL at random moments, each time rerun with the
 * same command, and finally run to its end. Its JSON Lines feed must equal
 * an uninterrupted crawl's: no item lost, none written twice.
 */

const PAGES = 300;
let site: TestSite;
let dir: string;

/** Page n links to 2n+1 and 2n+2 (a binary tree, so every page is reached once) and to page 0 (a duplicate). */
function page(n: number): string {
  const links = [2 * n + 1, 2 * n + 2, 0].filter((k) => k < PAGES).map((k) => `<a href="/p/${k}">p${k}</a>`);
  return `<html><body><h1>page ${n}</h1><span class="v">${n}-a</span><span class="v">${n}-b</span>${links.join('')}</body></html>`;
}

const SPIDER = `
import { Request, Spider, type Response } from 'seine';

/** A pipeline that takes its time, as one writing to a database does: a page's items leave it at different moments. */
class SlowPipeline {
  async processItem(item: Record<string, unknown>) {
    await new Promise((resolve) => setTimeout(resolve, String(item['value']).endsWith('a') ? 1 : 15));
    return item;
  }
}

export class TreeSpider extends Spider {
  static name = 'tree';
  static customSettings = { ITEM_PIPELINES: new Map([[SlowPipeline, 300]]) };
  async *start() {
    yield new Request('START_URL', { callback: this.parse });
  }
  *parse(response: Response) {
    for (const value of response.css('span.v::text').getall()) yield { value };
    yield* response.followAll(response.css('a::attr(href)').getall(), this.parse);
  }
}
`;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Record<string, (req: unknown, res: import('node:http').ServerResponse) => void> = {};
  for (let n = 0; n < PAGES; n++) {
    // A little latency, so that a kill finds requests downloading, waiting for a slot and in callbacks.
    routes[`/p/${n}`] = (_req, res) => setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page(n)), 8 + (n % 7));
  }
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-jobdir-crash-'));
  writeFileSync(join(dir, 'tree.ts'), SPIDER.replace('START_URL', site.url('/p/0')));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A small seeded PRNG (mulberry32), so a failing schedule of kills can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function args(job: string, feed: string): string[] {
  return ['runspider', 'tree.ts', '-s', `JOBDIR=${job}`, '-o', feed, '-s', 'CONCURRENT_REQUESTS=4', '-s', 'LOG_LEVEL=DEBUG', '-s', 'TELNETCONSOLE_ENABLED=false'];
}

function itemsOf(feed: string): string[] {
  return readFileSync(feed, 'utf8').split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { value: string }).value);
}

describe('JOBDIR after SIGKILL', () => {
  it('after kills at random moments and reruns of the same command, the items equal an uninterrupted crawl’s', async () => {
    const whole = await runSeine(args(join(dir, 'whole-job'), 'whole.jsonl'), dir);
    expect(whole.status).toBe(0);
    const expected = itemsOf(join(dir, 'whole.jsonl')).sort();
    expect(expected).toHaveLength(PAGES * 2);
    expect(new Set(expected).size).toBe(PAGES * 2);

    const seed = Number(process.env['SEINE_CRASH_SEED'] ?? Date.now() % 100000);
    const next = random(seed);
    const job = join(dir, `killed-job-${seed}`);
    const feed = `killed-${seed}.jsonl`;
    const kills: string[] = [];
    let recoveredLines = 0;
    // Six kills that land while the crawl runs (a round whose crawl ends first does not count).
    for (let round = 0; round < 20 && kills.filter((k) => k.startsWith('SIGKILL')).length < 6; round++) {
      const run = startSeine(args(job, feed), dir);
      // Kill while the crawl is under way: some time after its first page was crawled.
      await Promise.race([run.waitForLog(/Crawled \(200\)/), run.done]);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 150)));
      run.child.kill('SIGKILL');
      const result = await run.done;
      const lines = logMessages(result.stderr);
      recoveredLines += lines.filter((line) => line.startsWith('Recovered ')).length;
      kills.push(`${result.signal ?? `exit ${result.status}`} after ${lines.filter((l) => l.startsWith('Crawled (200)')).length} pages`);
    }
    const last = await runSeine(args(job, feed), dir);
    expect(last.status).toBe(0);
    expect(logMessages(last.stderr)).toContain('Spider closed (finished)');
    const got = itemsOf(join(dir, feed)).sort();
    const context = `seed ${seed} (rerun with SEINE_CRASH_SEED=${seed}); kills: ${kills.join(', ')}`;
    expect({ context, missing: expected.filter((v) => !got.includes(v)).length, extra: got.length - expected.length }).toEqual({ context, missing: 0, extra: 0 });
    expect(got).toEqual(expected);
    // At least one kill found a request started and not finished: a resumed run said what it recovered.
    expect(kills.filter((k) => k.startsWith('SIGKILL')).length).toBeGreaterThanOrEqual(5);
    expect(recoveredLines + logMessages(last.stderr).filter((l) => l.startsWith('Recovered ')).length).toBeGreaterThan(0);
    expect(existsSync(join(job, 'requests.queue', 'requests.jsonl'))).toBe(true);
  }, 120_000);
});
