/**
 * view(response) in a real browser: headless Chromium, started by view()
 * through BROWSER, opens the file and loads the page's RELATIVE stylesheet
 * from the test server, which only works through the `<base>` tag view()
 * adds; the same body opened as it came shows no style. A script on the
 * page writes the computed colour into the DOM, which Chromium dumps.
 *
 * Chromium comes from Debian (`npm run setup:test`, which `npm test` runs
 * first). Start-up takes 1–3 s, so the timeouts are generous.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Response } from '../../src/http/response.js';
import { findProgram } from '../../src/shell/browser-command.js';
import { openInBrowser } from '../../src/shell/open-in-browser.js';
import { startSite, type TestSite } from '../helpers/site-server.js';

jest.setTimeout(120_000);

const PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>view test</title><link rel="stylesheet" href="style.css"></head>
<body><p>Styled from style.css</p><pre id="out">script did not run</pre>
<script>document.getElementById('out').textContent = 'color: ' + getComputedStyle(document.body).color;</script>
</body></html>`;

// Without the background-networking flags Chromium tries Google's hosts at start, which this network refuses.
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--virtual-time-budget=5000', '--dump-dom',
];

function chromiumPath(): string {
  const found = findProgram('chromium', process.env, process.platform) ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null);
  if (found === null) throw new Error('Chromium is not installed (no `chromium` on PATH, no /usr/bin/chromium): run `npm run setup:test`');
  return found;
}

const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

async function waitForFile(file: string, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`Chromium wrote no ${file} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return readFileSync(file, 'utf8');
}

describe('view(response) in headless Chromium', () => {
  let site: TestSite;
  let folder: string;
  let chromium: string;
  let response: Response;

  beforeAll(async () => {
    chromium = chromiumPath();
    folder = mkdtempSync(join(tmpdir(), 'seine-view-chromium-'));
    site = await startSite({
      '/site/page.html': PAGE,
      '/site/style.css': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/css' }).end('body { color: rgb(1, 2, 3) }'),
    });
    const fetched = await fetch(site.url('/site/page.html'));
    response = new Response({
      url: site.url('/site/page.html'),
      status: fetched.status,
      headers: Object.fromEntries(fetched.headers),
      body: Buffer.from(await fetched.arrayBuffer()),
    });
  });

  afterAll(async () => {
    await site?.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('shows the page with its relative stylesheet loaded from the site', async () => {
    site.reset();
    // The "browser" view() starts: Chromium dumping the DOM it rendered, written whole once done.
    const wrapper = join(folder, 'chromium-dump-dom');
    const dom = join(folder, 'dom.html');
    writeFileSync(
      wrapper,
      `#!/bin/sh\n${[chromium, ...CHROMIUM_FLAGS, `--user-data-dir=${join(folder, 'profile-view')}`].map(shellQuote).join(' ')} "$1" ` +
        `> ${shellQuote(`${dom}.part`)} 2> ${shellQuote(join(folder, 'chromium.log'))}; mv ${shellQuote(`${dom}.part`)} ${shellQuote(dom)}\n`,
    );
    chmodSync(wrapper, 0o755);

    expect(openInBrowser(response, { tmpdir: folder, env: { ...process.env, BROWSER: shellQuote(wrapper) } })).toBe(true);
    const rendered = await waitForFile(dom, 90_000);

    expect(rendered).toContain('<pre id="out">color: rgb(1, 2, 3)</pre>');
    expect(site.hits).toContain('/site/style.css');
  });

  it('does not get the style from the same body opened without the <base> tag', async () => {
    site.reset();
    const raw = join(folder, 'raw-page.html');
    writeFileSync(raw, response.body);
    const { stdout } = await promisify(execFile)(
      chromium,
      [...CHROMIUM_FLAGS, `--user-data-dir=${join(folder, 'profile-raw')}`, pathToFileURL(raw).href],
      { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
    );

    expect(stdout).toContain('<pre id="out">color: rgb(0, 0, 0)</pre>');
    expect(site.hits).not.toContain('/site/style.css');
  });
});
