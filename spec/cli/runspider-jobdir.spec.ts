/**
 * JOBDIR end to end: `seine runspider` (the real binary) interrupted with
 * SIGINT and run again with the same JOBDIR resumes where it stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linksPage, startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, runSeine, startSeine } from './fixtures/run-seine.js';

const PAGES = 30;
const TIMEOUT = 60_000;

/** Counts its pages in spider.state; its start request is not dontFilter, so a resumed run does not fetch it again. */
const PAGES_SPIDER = `import { Spider, Request, type Response } from 'seine';

export class PagesSpider extends Spider {
  static name = 'pages';

  async *start() {
    yield new Request('http://127.0.0.1:8000/page/1/', { callback: this.parsePage });
  }

  *parsePage(response: Response) {
    this.state.pages = ((this.state.pages as number | undefined) ?? 0) + 1;
    yield { url: response.url };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parsePage);
  }
}
`;

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Record<string, string> = {};
  for (let n = 1; n <= PAGES; n++) {
    routes[`/page/${n}/`] = linksPage([...[n + 1, n + 2, n + 3].filter((m) => m <= PAGES).map((m) => `/page/${m}/`), '/page/1/']);
  }
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-jobdir-'));
  writeFileSync(join(dir, 'pages.ts'), PAGES_SPIDER.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const urls = (file: string): string[] =>
  readFileSync(join(dir, file), 'utf8').split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { url: string }).url);

const COMMON = ['-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'DOWNLOAD_DELAY=0.1', '-s', 'CONCURRENT_REQUESTS=2'];

describe('seine runspider -s JOBDIR=…: pausing and resuming', () => {
  it('SIGINT keeps the pending requests; the same command resumes; together the runs crawl each page once', async () => {
    const full = await runSeine(['runspider', 'pages.ts', '-O', 'full.jsonl', ...COMMON], dir);
    expect(full.status).toBe(0);
    const expected = urls('full.jsonl').sort();
    expect(expected).toHaveLength(PAGES);
    site.reset();

    const jobArgs = ['runspider', 'pages.ts', ...COMMON, '-s', 'JOBDIR=crawls/run-1'];
    const run = startSeine([...jobArgs, '-O', 'part-1.jsonl'], dir);
    await run.waitForLog(/(Scraped from[\s\S]*){3}/);
    run.child.kill('SIGINT');
    const first = await run.done;
    expect(first.status).toBe(0);
    expect(first.stderr).toContain("'finish_reason': 'shutdown'");
    const jobdir = join(dir, 'crawls', 'run-1');
    expect(existsSync(join(jobdir, 'requests.seen'))).toBe(true);
    // The journal's request lines (its first line records the start's progress).
    const queued = readFileSync(join(jobdir, 'requests.queue', 'requests.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"request"'));
    expect(queued.length).toBeGreaterThan(0);
    const part1 = urls('part-1.jsonl');
    expect(part1.length).toBeLessThan(PAGES);
    expect(JSON.parse(readFileSync(join(jobdir, 'spider.state'), 'utf8'))).toEqual({ pages: part1.length });

    const second = await runSeine([...jobArgs, '-O', 'part-2.jsonl'], dir);
    expect(second.status).toBe(0);
    const messages = logMessages(second.stderr);
    expect(messages).toContain(`Resuming crawl (${queued.length} requests scheduled)`);
    expect(second.stderr).toContain("'finish_reason': 'finished'");
    expect(second.stderr).toMatch(/'scheduler\/dequeued\/disk': \d+/);

    expect([...part1, ...urls('part-2.jsonl')].sort()).toEqual(expected);
    expect(site.hits).toHaveLength(PAGES); // no page fetched twice over the two runs
    expect(new Set(site.hits).size).toBe(PAGES);
    expect(JSON.parse(readFileSync(join(jobdir, 'spider.state'), 'utf8'))).toEqual({ pages: PAGES });
    expect(readFileSync(join(jobdir, 'requests.seen'), 'utf8').split('\n').filter((l) => l !== '')).toHaveLength(PAGES);
    expect(readFileSync(join(jobdir, 'requests.queue', 'requests.jsonl'), 'utf8')).toBe('{"start":1}\n'); // no request left; the start's progress is kept
  }, TIMEOUT);
});
