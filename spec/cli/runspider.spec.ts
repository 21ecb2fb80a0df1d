/**
 * `seine runspider` end to end: the real binary (bin/seine.js, running dist/)
 * in a child process, a spider file written into a temporary folder, and a
 * real HTTP server on 127.0.0.1 that this file starts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import {
  BROKEN_FILE, NO_SPIDER_FILE, QUOTES_SPIDER, SIX_PAGES_SPIDER, SLOW_SPIDER, TAG_SPIDER, THROWING_SPIDER,
} from './fixtures/spiders.js';
import { ensureBuilt, logMessages, runSeine, startSeine } from './fixtures/run-seine.js';

const QUOTES = [
  { text: 'The world as we have created it is a process of our thinking.', author: 'Albert Einstein', tags: ['change', 'thinking'] },
  { text: 'It is our choices, Harry, that show what we truly are.', author: 'J.K. Rowling', tags: ['choices'] },
  { text: 'A day without sunshine is like, you know, night.', author: 'Steve Martin', tags: ['humor', 'obvious'] },
];

function quotePage(n: number): string {
  const quote = QUOTES[n - 1]!;
  const tags = quote.tags.map((t) => `<a class="tag" href="/tag/${t}/">${t}</a>`).join(' ');
  const next = n < QUOTES.length ? `<li class="next"><a href="/page/${n + 1}/">Next <span>→</span></a></li>` : '';
  return `<!DOCTYPE html><html><head><title>Quotes to Scrape</title></head><body>
<div class="quote"><span class="text">${quote.text}</span><span>by <small class="author">${quote.author}</small></span>
<div class="tags">Tags: ${tags}</div></div><nav><ul class="pager">${next}</ul></nav></body></html>`;
}

/** Slow pages: each answer waits SLOW_MS; `inFlight`/`maxInFlight` measure the crawler's concurrency. */
const SLOW_MS = 200;
let inFlight = 0;
let maxInFlight = 0;
let slowMs = SLOW_MS;

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Parameters<typeof startSite>[0] = {};
  for (let n = 1; n <= QUOTES.length; n++) routes[`/page/${n}/`] = quotePage(n);
  routes['/tag/humor/'] = '<html><head><title>Humor quotes</title></head><body></body></html>';
  for (let n = 1; n <= 40; n++) {
    routes[`/slow/${n}/`] = (_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // unref: a test that kills the crawler leaves answers pending; they must not keep jest alive.
      setTimeout(() => {
        inFlight--;
        if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body><p>slow ${n}</p></body></html>`);
      }, slowMs).unref();
    };
  }
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-runspider-'));
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a spider file for this test's server and returns its name (relative to `dir`). */
function spiderFile(name: string, source: string): string {
  writeFileSync(join(dir, name), source.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
  return name;
}

function jsonLines(text: string): unknown[] {
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
}

/** The stats dump: the lines after `Dumping seine stats:` up to the next log line, with a newline after each. */
function statsDump(stderr: string): string {
  const dump = /Dumping seine stats:\n([\s\S]*?\n)\d{4}-\d\d-\d\d /.exec(stderr);
  return dump === null ? '' : dump[1]!.replace(/}\n$/, ',\n');
}

const QUIET = ['-s', 'TELNETCONSOLE_ENABLED=false'];
const TIMEOUT = 60_000;

describe('seine runspider: crawling', () => {
  it('crawls the site with the quotes spider and exits 0', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    const result = await runSeine(['runspider', file, '-O', 'quotes.jsonl', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(jsonLines(readFileSync(join(dir, 'quotes.jsonl'), 'utf8'))).toEqual(QUOTES);
    expect(statsDump(result.stderr)).toContain("'item_scraped_count': 3,\n");
    expect(statsDump(result.stderr)).toContain("'finish_reason': 'finished',\n");
  }, TIMEOUT);

  it('sets -a tag=humor on a field declared `tag?: string`', async () => {
    const file = spiderFile('tagged.ts', TAG_SPIDER);
    const result = await runSeine(['runspider', file, '-a', 'tag=humor', '-o', '-', '-L', 'INFO', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([{ tag: 'humor', title: 'Humor quotes' }]);
    expect(site.hits).toContain('/tag/humor/');
  }, TIMEOUT);

  it('applies -s CONCURRENT_REQUESTS=1: one request in flight at a time', async () => {
    const file = spiderFile('six.ts', SIX_PAGES_SPIDER);
    maxInFlight = 0;
    const parallel = await runSeine(['runspider', file, '-O', 'six.jsonl', ...QUIET], dir);
    expect(parallel.status).toBe(0);
    expect(maxInFlight).toBe(6);
    maxInFlight = 0;
    const serial = await runSeine(['runspider', file, '-O', 'six.jsonl', '-s', 'CONCURRENT_REQUESTS=1', ...QUIET], dir);
    expect(serial.status).toBe(0);
    expect(maxInFlight).toBe(1);
    expect(jsonLines(readFileSync(join(dir, 'six.jsonl'), 'utf8'))).toHaveLength(6);
  }, TIMEOUT);

  it('logs a callback error as `Spider error processing`, scrapes the other pages and exits 0', async () => {
    const file = spiderFile('thrower.ts', THROWING_SPIDER);
    const result = await runSeine(['runspider', file, '-O', 'thrown.jsonl', ...QUIET], dir);
    expect(result.status).toBe(0);
    const messages = logMessages(result.stderr);
    const error = messages.indexOf(`Spider error processing <GET ${site.url('/page/2/')}> (referer: None)`);
    expect(error).toBeGreaterThan(0);
    expect(messages[error + 1]).toBe('Error: no quotes on page 2');
    expect(result.stderr).toMatch(/ \[seine\.core\.scraper\] ERROR: Spider error processing /);
    expect(jsonLines(readFileSync(join(dir, 'thrown.jsonl'), 'utf8'))).toEqual([{ text: QUOTES[0]!.text }, { text: QUOTES[2]!.text }]);
    expect(statsDump(result.stderr)).toContain("'spider_exceptions/Error': 1,\n");
    expect(statsDump(result.stderr)).toContain("'finish_reason': 'finished',\n");
  }, TIMEOUT);
});

describe('seine runspider: the log', () => {
  it('writes the lines of docs/logging.md in order, in the `<date> <time> [<logger>] <LEVEL>: <message>` format', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    const result = await runSeine(['runspider', file], dir);
    expect(result.status).toBe(0);
    const lines = result.stderr.split('\n');
    const page1 = site.url('/page/1/');
    const expected: Array<[string, RegExp]> = [
      ['Spider opened', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[seine\.core\.engine\] INFO: Spider opened$/],
      ['LogStats', /^\S+ \S+ \[seine\.extensions\.logstats\] INFO: Crawled 0 pages \(at 0 pages\/min\), scraped 0 items \(at 0 items\/min\)$/],
      ['telnet', /^\S+ \S+ \[seine\.extensions\.telnet\] INFO: Telnet console listening on 127\.0\.0\.1:\d+$/],
      ['Crawled', new RegExp(`^\\S+ \\S+ \\[seine\\.core\\.engine\\] DEBUG: Crawled \\(200\\) <GET ${page1}> \\(referer: None\\)$`)],
      ['Scraped', new RegExp(`^\\S+ \\S+ \\[seine\\.core\\.scraper\\] DEBUG: Scraped from <200 ${page1}>$`)],
      ['Closing', /^\S+ \S+ \[seine\.core\.engine\] INFO: Closing spider \(finished\)$/],
      ['stats', /^\S+ \S+ \[seine\.statscollectors\] INFO: Dumping seine stats:$/],
      ['Spider closed', /^\S+ \S+ \[seine\.core\.engine\] INFO: Spider closed \(finished\)$/],
    ];
    const positions = expected.map(([name, pattern]) => [name, lines.findIndex((line) => pattern.test(line))] as const);
    expect(positions.filter(([, at]) => at < 0)).toEqual([]);
    expect([...positions].sort((a, b) => a[1] - b[1])).toEqual(positions);
    // The item follows its `Scraped from` line; the dump is Scrapy's pprint of the stats.
    const scraped = positions[4]![1];
    expect(JSON.parse(lines[scraped + 1]!)).toEqual(QUOTES[0]);
    expect(lines[positions[6]![1] + 1]).toBe("{'downloader/request_bytes': " + /'downloader\/request_bytes': (\d+)/.exec(result.stderr)![1] + ',');
    expect(statsDump(result.stderr)).toContain("'downloader/response_status_count/200': 3,\n");
  }, TIMEOUT);
});

describe('seine runspider: feeds', () => {
  it('-O overwrites the file', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    writeFileSync(join(dir, 'over.jsonl'), '{"old":true}\n');
    const result = await runSeine(['runspider', file, '-O', 'over.jsonl', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(jsonLines(readFileSync(join(dir, 'over.jsonl'), 'utf8'))).toEqual(QUOTES);
  }, TIMEOUT);

  it('-o appends to the file', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    writeFileSync(join(dir, 'append.jsonl'), '{"old":true}\n');
    const result = await runSeine(['runspider', file, '-o', 'append.jsonl', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(jsonLines(readFileSync(join(dir, 'append.jsonl'), 'utf8'))).toEqual([{ old: true }, ...QUOTES]);
  }, TIMEOUT);

  it('-o - writes JSON Lines to standard output, and nothing else', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    const result = await runSeine(['runspider', file, '-o', '-', ...QUIET], dir);
    expect(result.status).toBe(0);
    // Scrapy's JSON Lines: ", " and ": " separators, non-ASCII escaped.
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(jsonLines(result.stdout)).toEqual(QUOTES);
    expect(result.stdout.split('\n')[0]).toMatch(/^\{"text": /);
  }, TIMEOUT);

  it('takes the format from a :jsonlines suffix whatever the extension', async () => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    const result = await runSeine(['runspider', file, '-O', 'items.data:jsonlines', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(jsonLines(readFileSync(join(dir, 'items.data'), 'utf8'))).toEqual(QUOTES);
  }, TIMEOUT);

  it.each([
    ['items.txt', "seine: Cannot tell the feed format of 'items.txt': use an extension (.json, .jsonl, .jl, .csv, .xml) or add :format, e.g. -o items.txt:jsonlines"],
  ])('refuses -o %s with one clear line and exit status 1, crawling nothing', async (feed, message) => {
    const file = spiderFile('quotes.ts', QUOTES_SPIDER);
    const hits = site.hits.length;
    const result = await runSeine(['runspider', file, '-o', feed, ...QUIET], dir);
    expect(result.status).toBe(1);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(message);
    expect(result.stderr).not.toContain('    at ');
    expect(site.hits.length).toBe(hits);
  }, TIMEOUT);
});

describe('seine runspider: files that cannot be run', () => {
  async function refused(file: string): Promise<string> {
    const result = await runSeine(['runspider', file, ...QUIET], dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('Spider opened');
    return result.stderr.trimEnd().split('\n').at(-1)!;
  }

  it('a missing file: `File not found`', async () => {
    expect(await refused('missing.ts')).toBe('seine: File not found: missing.ts');
  }, TIMEOUT);

  it('a file that does not compile: the compiler\'s message on one line, naming the file as the user did', async () => {
    const file = spiderFile('broken.ts', BROKEN_FILE);
    expect(await refused(file)).toBe('seine: Could not load broken.ts: broken.ts:5:1: Expected identifier but found end of file');
  }, TIMEOUT);

  it('a file that exports no spider: `No spider found in file`', async () => {
    const file = spiderFile('none.ts', NO_SPIDER_FILE);
    expect(await refused(file)).toBe('seine: No spider found in file: none.ts (export a class that extends Spider and has a static name)');
  }, TIMEOUT);
});

describe('seine runspider: signals', () => {
  it('shuts down gracefully on SIGINT: finish_reason shutdown, and every feed line is complete', async () => {
    const file = spiderFile('slow.ts', SLOW_SPIDER);
    slowMs = 400;
    try {
      const run = startSeine(['runspider', file, '-O', 'slow.jsonl', ...QUIET], dir);
      await run.waitForLog(/Scraped from <200 /);
      run.child.kill('SIGINT');
      const result = await run.done;
      expect(result.status).toBe(0);
      const messages = logMessages(result.stderr);
      const received = messages.indexOf('Received SIGINT, shutting down gracefully. Send again to force');
      expect(received).toBeGreaterThan(0);
      expect(messages.indexOf('Closing spider (shutdown)')).toBeGreaterThan(received);
      expect(messages.at(-2)).toBe('Spider closed (shutdown)');
      expect(statsDump(result.stderr)).toContain("'finish_reason': 'shutdown',\n");
      const text = readFileSync(join(dir, 'slow.jsonl'), 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const items = jsonLines(text); // throws on a torn line
      const scraped = Number(/'item_scraped_count': (\d+)/.exec(result.stderr)![1]);
      expect(items).toHaveLength(scraped);
      expect(scraped).toBeGreaterThan(0);
      expect(scraped).toBeLessThan(40);
    } finally {
      slowMs = SLOW_MS;
    }
  }, TIMEOUT);

  it('forces the exit on a second SIGINT', async () => {
    const file = spiderFile('slow.ts', SLOW_SPIDER);
    slowMs = 20_000;
    try {
      const run = startSeine(['runspider', file, '-O', 'forced.jsonl', ...QUIET], dir);
      await run.waitForLog(/Spider opened/);
      run.child.kill('SIGINT');
      await run.waitForLog(/Received SIGINT, shutting down gracefully/);
      const sent = Date.now();
      run.child.kill('SIGINT');
      const result = await run.done;
      // Well before the server's 20 s answers: nothing waited for the requests in flight.
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect(result.status).toBe(1);
      expect(logMessages(result.stderr)).toContain('Received SIGINT twice, forcing unclean shutdown');
      expect(result.stderr).not.toContain('Spider closed');
    } finally {
      slowMs = SLOW_MS;
    }
  }, TIMEOUT);
});
