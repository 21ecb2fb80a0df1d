/**
 * Closing with a queue far longer than the call stack (issue 21): every
 * queued request is dropped and counted, and no ERROR is logged. Run as a
 * user would, with `seine runspider` in its own process: in-process, in a
 * Jest worker that had run many suites before it, the same crawl took over
 * 120 s twice in the full suite (~10 s alone), for reasons outside the close.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type TestSite } from '../helpers/site-server.js';

const QUEUED = 200_000;
let site: TestSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({ '/': '<html><body>start</body></html>', '/p': '<html><body>p</body></html>' });
  dir = mkdtempSync(join(tmpdir(), 'seine-huge-queue-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A number from the stats dump (`'name': 123,`), or undefined. */
function stat(stderr: string, name: string): number | undefined {
  const match = new RegExp(`'${name.replace(/[/]/g, '\\/')}': (\\d+)`).exec(stderr);
  return match === null ? undefined : Number(match[1]);
}

describe('closing with 200,000 requests queued', () => {
  it('closes with closespider_pagecount, logs no ERROR and drops every queued request with reason closing', async () => {
    writeFileSync(
      join(dir, 'wide.ts'),
      `import { Request, Spider, type Response } from 'seine';
export class Wide extends Spider {
  static name = 'wide';
  startUrls = [${JSON.stringify(site.url('/'))}];
  *parse(response: Response) {
    if (new URL(response.url).pathname !== '/') return;
    for (let i = 0; i < ${QUEUED}; i++) yield new Request(${JSON.stringify(site.url('/p'))} + '?i=' + i, { callback: this.parse });
  }
}
`,
    );
    const run = await runSeine(['runspider', 'wide.ts', '-L', 'INFO', '-s', 'CLOSESPIDER_PAGECOUNT=2', '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0'], dir);
    expect(run.stderr.split('\n').filter((line) => / ERROR: /.test(line))).toEqual([]);
    expect(run.stderr).toContain("'finish_reason': 'closespider_pagecount'");
    // What was downloaded (the start page and the requests in flight at the close) plus what was dropped is everything.
    const taken = stat(run.stderr, 'downloader/request_count')! - 1;
    expect(stat(run.stderr, 'request_dropped/closing')).toBe(QUEUED - taken);
    expect(stat(run.stderr, 'scheduler/enqueued')).toBe(QUEUED + 1);
    expect(run.status).toBe(0);
  }, 120_000); // ~10 s alone
});
