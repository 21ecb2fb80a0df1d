/**
 * Monitors through the real binary: `seine runspider` in a child process
 * against a real server on 127.0.0.1. A failed monitor is exit status 3
 * with the report in the log; a bad MONITORS is one line and status 1.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, runSeine } from '../cli/fixtures/run-seine.js';

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/': '<html><body><p class="v">home</p><a href="/about">about</a></body></html>',
    '/about': '<html><body><p class="v">about</p><b>Ann</b></body></html>',
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-monitors-binary-'));
  writeFileSync(join(dir, 'pages.ts'), `import { Spider, fail, type MonitorRun, type Response } from 'seine';
class AuthorMonitor {
  check(run: MonitorRun) {
    if (run.stat('item_scraped_count') < 3) return fail('fewer than 3 pages had an author');
  }
}
export class Pages extends Spider {
  static name = 'pages';
  static monitors = [AuthorMonitor];
  startUrls = ['${site.url('/')}'];
  *parse(response: Response) {
    yield { v: response.css('p.v::text').get(), author: response.css('b::text').get() };
    yield* response.followAll(response.css('a'), this.parse);
  }
}
`);
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const QUIET = ['-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0'];

describe('seine runspider with MONITORS', () => {
  it('exits with status 3 when a monitor fails, after logging the report block and dumping monitors/failed', async () => {
    const monitors = JSON.stringify({ ItemCountMonitor: { min: 2 }, FieldCoverageMonitor: { fields: { author: 0.9 } } });
    const result = await runSeine(['runspider', 'pages.ts', '-s', `MONITORS=${monitors}`, ...QUIET], dir);
    expect(result.status).toBe(3);
    const lines = logMessages(result.stderr);
    const start = lines.indexOf('Monitors: 1 passed, 2 failed — the crawl will exit with status 3');
    expect(start).toBeGreaterThan(-1);
    expect(lines.slice(start, start + 4)).toEqual([
      'Monitors: 1 passed, 2 failed — the crawl will exit with status 3',
      '  PASS ItemCountMonitor: 2 items scraped (min 2)',
      '  FAIL FieldCoverageMonitor: of 2 items: author 50.0% (min 90.0%)',
      '  FAIL AuthorMonitor: fewer than 3 pages had an author',
    ]);
    expect(result.stderr).toMatch(/\[seine\.monitors\] WARNING: Monitors: 1 passed, 2 failed/);
    expect(result.stderr).toContain("'monitors/failed': 2,");
    // The report comes before the stats dump and `Spider closed`.
    expect(result.stderr.indexOf('Monitors: 1 passed')).toBeLessThan(result.stderr.indexOf('Dumping seine stats'));
  }, 60_000);

  it('exits with status 0 when every monitor passes', async () => {
    const result = await runSeine(['runspider', 'pages.ts', '-s', 'MONITORS={"ItemCountMonitor":{"min":2},"AuthorMonitor":null}', ...QUIET], dir);
    expect(result.status).toBe(0);
    expect(logMessages(result.stderr)).toContain('Monitors: 1 passed, 0 failed');
  }, 60_000);

  it('a misspelt monitor is one line and status 1, before any request', async () => {
    site.reset();
    const result = await runSeine(['runspider', 'pages.ts', '-s', 'MONITORS={"ItemCountMonitr":{"min":2}}', ...QUIET], dir);
    expect(result.status).toBe(1);
    const errors = result.stderr.split('\n').filter((l) => l.includes('ItemCountMonitr'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/MONITORS: unknown monitor 'ItemCountMonitr': use one of ItemCountMonitor, /);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(site.hits).toEqual([]);
  }, 60_000);
});
