/**
 * `--wait-for SELECTOR` and `--wait-timeout SECONDS` of fetch, view, shell
 * and parse, through the real binary and Debian's Chromium, against a local
 * page whose content a script writes a second after the page has loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, runSeine } from './fixtures/run-seine.js';

const TIMEOUT = 90_000;
const LATE = '<div class="late">arrived late</div>';
const LATE_PAGE = `<html><head><title>Late</title></head><body><p>loaded</p>
<script>setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<div class="late">' + 'arrived late</div>'), 1000);</script></body></html>`;

let site: TestSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({ '/late': LATE_PAGE });
  dir = mkdtempSync(join(tmpdir(), 'seine-wait-for-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seine fetch --wait-for', () => {
  it('renders the page (no --browser needed) and waits for the selector before reading it', async () => {
    const waited = await runSeine(['fetch', '--nolog', '--wait-for', 'div.late', site.url('/late')], dir);
    expect(waited.status).toBe(0);
    expect(waited.stdout).toContain(LATE);
    // Without the wait, the rendered page is read when it has loaded: before the script's second is up.
    const rendered = await runSeine(['fetch', '--nolog', '--browser', site.url('/late')], dir);
    expect(rendered.status).toBe(0);
    expect(rendered.stdout).toContain('<p>loaded</p>');
    expect(rendered.stdout).not.toContain(LATE);
  }, TIMEOUT);

  it('gives up after --wait-timeout with one line: the selector, the page, how long, what to do', async () => {
    const started = Date.now();
    const run = await runSeine(['fetch', '--nolog', '--wait-for', 'div.never', '--wait-timeout', '1.5', site.url('/late')], dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `seine: No element matched 'div.never' on ${site.url('/late')} after waiting 1.5 s: check the selector against the page (seine shell --browser ${site.url('/late')}), or wait longer with --wait-timeout SECONDS\n`,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  }, TIMEOUT);

  it.each([
    [['--no-browser', '--wait-for', 'div.late'], '--wait-for waits in a page rendered by the browser: drop --no-browser (--wait-for renders the page by itself)'],
    [['--wait-timeout', '5'], '--wait-timeout says how long --wait-for waits: give --wait-for SELECTOR too'],
    [['--wait-for', 'div.late', '--wait-timeout', 'abc'], "--wait-timeout must be a number of seconds above 0, e.g. --wait-timeout 10, got 'abc'"],
    [['--wait-for', 'div.late', '--wait-timeout', '0'], "--wait-timeout must be a number of seconds above 0, e.g. --wait-timeout 10, got '0'"],
  ])('%j is a usage error (status 2), before anything is downloaded', async (options, message) => {
    site.reset();
    const run = await runSeine(['fetch', '--nolog', ...options, site.url('/late')], dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`seine: ${message} — run 'seine fetch --help' for usage\n`);
    expect(site.hits).toEqual([]);
  });
});

describe('the other commands that render', () => {
  it('seine view --wait-for opens the page with the late content', async () => {
    const opener = join(dir, 'opener.sh');
    const viewed = join(dir, 'viewed.html');
    // The browser is given a file:// URL, and is started without being waited for.
    writeFileSync(opener, `#!/bin/sh\ncp "\${1#file://}" '${viewed}.part' && mv '${viewed}.part' '${viewed}'\n`);
    chmodSync(opener, 0o755);
    const run = await runSeine(['view', '--nolog', '--wait-for', 'div.late', site.url('/late')], dir, { BROWSER: `${opener} %s` });
    expect(run.status).toBe(0);
    const deadline = Date.now() + 10_000;
    while (!existsSync(viewed) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readFileSync(viewed, 'utf8')).toContain(LATE);
  }, TIMEOUT);

  it('seine shell URL --wait-for opens the console on the page with the late content; a timeout is one line and no console', async () => {
    const run = await runSeine(['shell', site.url('/late'), '--nolog', '--wait-for', 'div.late', '-c', "response.css('div.late::text').get()"], dir);
    expect(run.stdout).toBe('arrived late\n');
    expect(run.status).toBe(0);
    const timedOut = await runSeine(['shell', site.url('/late'), '--nolog', '--wait-for', 'div.never', '--wait-timeout', '1', '-c', '1'], dir);
    expect(timedOut.status).toBe(1);
    expect(timedOut.stderr).toBe(
      `seine: No element matched 'div.never' on ${site.url('/late')} after waiting 1 s: check the selector against the page (seine shell --browser ${site.url('/late')}), or wait longer with --wait-timeout SECONDS\n`,
    );
  }, TIMEOUT);

  it('seine shell --wait-for without a target is a usage error', async () => {
    const run = await runSeine(['shell', '--nolog', '--wait-for', 'div.late', '-c', '1'], dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("seine: --wait-for waits in the target page: give the target too, e.g. seine shell URL --wait-for SELECTOR — run 'seine shell --help' for usage\n");
  });

  it("seine parse --wait-for runs the spider's callback on the page with the late content", async () => {
    expect((await runSeine(['startproject', 'waitproject'], dir)).status).toBe(0);
    const project = join(dir, 'waitproject');
    writeFileSync(join(project, 'waitproject', 'spiders', 'late.ts'), `import { Spider, type Response } from 'seine';

export class LateSpider extends Spider {
  static name = 'late';
  allowedDomains = ['127.0.0.1'];

  *parse(response: Response) {
    yield { late: response.css('div.late::text').get() };
  }
}
`);
    const run = await runSeine(['parse', '--nolog', '--wait-for', 'div.late', site.url('/late')], project);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("{ late: 'arrived late' }");
  }, TIMEOUT);
});
