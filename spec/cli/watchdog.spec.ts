/**
 * The Watchdog extension through the real binary: a callback that runs a
 * catastrophically backtracking regular expression (a RegExp `(a+)+$` on
 * 35 `a`s and a `b`: minutes of backtracking) blocks the event
 * loop; the watchdog names it, ends the process when CLOSESPIDER_TIMEOUT
 * has passed, and forces a second SIGINT. A local server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, runSeine, startSeine } from './fixtures/run-seine.js';

let site: TestSite;
let dir: string;

/** The start page yields an item per link, then follows them; /regex/ blocks the loop, /busy/ for 1.5 s. */
const SPIDER = `
import { Spider, type Response } from 'seine';

export class BlockingSpider extends Spider {
  static name = 'blocking';
  startUrls = ['http://127.0.0.1:8000/start/'];

  *parse(response: Response) {
    for (const href of response.css('a::attr(href)').getall()) {
      yield { link: href };
      yield response.follow(href, this.parsePage);
    }
  }

  *parsePage(response: Response) {
    if (response.url.includes('/busy/')) {
      const until = Date.now() + 1500;
      while (Date.now() < until);
    }
    // A JavaScript RegExp: re:test() runs this pattern on RE2 (linear time, docs/selectors.md), RegExp backtracks.
    yield { url: response.url, matched: /(a+)+$/.test(response.css('p::text').get() ?? '') ? 1 : 0 };
  }
}
`;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/start/': '<html><body><a href="/regex/">regex</a></body></html>',
    '/start-busy/': '<html><body><a href="/busy/">busy</a></body></html>',
    // Answered after 300 ms, so the start page's items are in the feed before the callback blocks.
    '/regex/': (_req, res) => {
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body><p>${'a'.repeat(35)}b</p></body></html>`);
      }, 300).unref();
    },
    '/busy/': '<html><body><p>aaab</p></body></html>',
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-watchdog-'));
  writeFileSync(join(dir, 'blocking.ts'), SPIDER.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
  writeFileSync(
    join(dir, 'exslt.ts'),
    SPIDER.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')).replace(
      "/(a+)+$/.test(response.css('p::text').get() ?? '') ? 1 : 0",
      'response.xpath(\'//p[re:test(text(), "(a+)+$")]\').getall().length',
    ),
  );
  writeFileSync(join(dir, 'busy.ts'), SPIDER.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')).replace('/start/', '/start-busy/'));
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const BLOCKED_LINE = /WARNING: The event loop has been blocked for \d+\.\d s, in the callback of <GET /;

function feedLines(path: string): unknown[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
}

describe('a callback that blocks the event loop', () => {
  it('is named in a WARNING with its URL, and CLOSESPIDER_TIMEOUT=2 still ends the process, leaving the JSON Lines feed intact', async () => {
    const feed = join(dir, 'timeout.jsonl');
    const run = startSeine(
      ['runspider', 'blocking.ts', '-o', feed, '-s', 'CLOSESPIDER_TIMEOUT=2', '-s', 'WATCHDOG_WARNING_SECONDS=1', '-s', 'WATCHDOG_CLOSE_GRACE_SECONDS=1', '-s', 'TELNETCONSOLE_ENABLED=false'],
      dir,
    );
    await run.waitForLog(/Spider opened/);
    const opened = Date.now();
    await run.waitForLog(BLOCKED_LINE);
    const result = await run.done;
    const elapsed = (Date.now() - opened) / 1000;
    expect(result.status).toBe(1);
    const messages = logMessages(result.stderr);
    expect(messages.filter((m) => m.startsWith('The event loop has been blocked for 1.'))).toEqual([
      expect.stringMatching(new RegExp(`^The event loop has been blocked for 1\\.\\d s, in the callback of <GET ${site.url('/regex/').replaceAll('.', '\\.')}> \\(parsePage\\)$`)),
    ]);
    expect(messages.find((m) => m.startsWith('CLOSESPIDER_TIMEOUT (2 s) passed and the event loop has been blocked for '))).toMatch(
      new RegExp(`, in the callback of <GET ${site.url('/regex/').replaceAll('.', '\\.')}> \\(parsePage\\), so the crawl cannot close: forcing unclean shutdown \\(exit status 1\\)`),
    );
    expect(result.stderr).toMatch(/\[seine\.extensions\.watchdog\] CRITICAL: CLOSESPIDER_TIMEOUT/);
    expect(result.stderr).not.toContain('Waiting for the debugger');
    // The bound: CLOSESPIDER_TIMEOUT (2) + WATCHDOG_CLOSE_GRACE_SECONDS (1), the worker's start and its 50 ms polls
    // (< 0.2 s), plus slack for a loaded machine (this file's own event loop sees the lines late).
    expect(elapsed).toBeGreaterThanOrEqual(2.5);
    expect(elapsed).toBeLessThan(5);
    expect(feedLines(feed)).toEqual([{ link: '/regex/' }]);
  }, 60_000);

  it('ends on a second SIGINT within a second, the first one announced as waiting for the callback', async () => {
    const feed = join(dir, 'sigint.jsonl');
    const run = startSeine(['runspider', 'blocking.ts', '-o', feed, '-s', 'WATCHDOG_WARNING_SECONDS=1', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    await run.waitForLog(BLOCKED_LINE);
    run.child.kill('SIGINT');
    await run.waitForLog(/Received SIGINT while the event loop has been blocked for/);
    const second = Date.now();
    run.child.kill('SIGINT');
    const result = await run.done;
    expect((Date.now() - second) / 1000).toBeLessThan(1.5);
    expect(result.status).toBe(1);
    const messages = logMessages(result.stderr);
    expect(messages.find((m) => m.startsWith('Received SIGINT while'))).toMatch(
      /, in the callback of <GET http:\/\/127\.0\.0\.1:\d+\/regex\/> \(parsePage\): the graceful shutdown starts when it returns\. Send again to force$/,
    );
    expect(messages.find((m) => m.startsWith('Received SIGINT twice while the event loop has been blocked for '))).toContain('forcing unclean shutdown (exit status 1)');
    expect(result.stderr).not.toContain('Waiting for the debugger');
    expect(feedLines(feed)).toEqual([{ link: '/regex/' }]);
  }, 60_000);

  it('a block that ends is reported twice and counted; the crawl finishes normally', async () => {
    const result = await runSeine(['runspider', 'busy.ts', '-o', '-', '-s', 'WATCHDOG_WARNING_SECONDS=0.5', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(result.status).toBe(0);
    const messages = logMessages(result.stderr);
    const url = site.url('/busy/');
    expect(messages.filter((m) => m.startsWith('The event loop'))).toEqual([
      expect.stringMatching(new RegExp(`^The event loop has been blocked for 0\\.[5-9] s, in the callback of <GET ${url.replaceAll('.', '\\.')}> \\(parsePage\\)$`)),
      expect.stringMatching(new RegExp(`^The event loop was blocked for 1\\.\\d s, in the callback of <GET ${url.replaceAll('.', '\\.')}> \\(parsePage\\)$`)),
    ]);
    expect(result.stderr).toContain("'watchdog/blocked_count': 1,");
    expect(result.stderr).toMatch(/'watchdog\/blocked_max_seconds': 1\.\d[,}]/);
    expect(result.stderr).toContain('Spider closed (finished)');
    expect(result.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown)).toEqual([{ link: '/busy/' }, { url, matched: 0 }]);
  }, 60_000);

  it('a block that starts as the spider opens, before the watchdog\'s thread is up, is still reported and counted', async () => {
    // The crawl does not wait for the worker to boot: its beat is already moving, so a block from the first turn on is seen.
    writeFileSync(
      join(dir, 'early.ts'),
      `import { Spider } from 'seine';
export class EarlySpider extends Spider {
  static name = 'early';
  async *start() {
    const until = Date.now() + 1500;
    while (Date.now() < until);
  }
}
`,
    );
    const result = await runSeine(['runspider', 'early.ts', '-s', 'WATCHDOG_WARNING_SECONDS=0.5', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(result.status).toBe(0);
    const messages = logMessages(result.stderr).filter((m) => m.startsWith('The event loop'));
    expect(messages).toEqual([expect.stringMatching(/^The event loop has been blocked for 0\.[5-9] s$/), expect.stringMatching(/^The event loop was blocked for 1\.\d s$/)]);
    expect(result.stderr).toContain("'watchdog/blocked_count': 1,");
    expect(result.stderr).toContain('Spider closed (finished)');
  }, 60_000);

  it('re:test with the same pattern runs on RE2 and does not block: the crawl finishes with no watchdog line', async () => {
    const result = await runSeine(['runspider', 'exslt.ts', '-o', '-', '-s', 'WATCHDOG_WARNING_SECONDS=0.5', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain('seine.extensions.watchdog');
    expect(result.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown)).toEqual([{ link: '/regex/' }, { url: site.url('/regex/'), matched: 0 }]);
  }, 60_000);
});
