/**
 * `seine view <url>` through the real binary: the page is fetched from a
 * server on 127.0.0.1, written to a temp file with a `<base>` tag, and the
 * browser named by BROWSER — here a tiny script that records its argument —
 * is started with that file's URL.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ROOT, ensureBuilt, type SeineRun } from './fixtures/run-seine.js';

const TIMEOUT = 60_000;
const PAGE = '<html><head><title>Styled</title><link rel="stylesheet" href="style.css"></head><body><p>page</p></body></html>';

let site: TestSite;
let dir: string;
let browser: string;
let record: string;

function runView(args: readonly string[], env: Record<string, string | undefined>): Promise<SeineRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'seine.js'), 'view', ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** The browser runs detached: wait until the script has written what it was given. */
async function recordedArgument(): Promise<string> {
  for (let i = 0; i < 100; i++) {
    if (existsSync(record)) {
      const text = readFileSync(record, 'utf8');
      if (text.endsWith('\n')) return text.trimEnd();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the browser script was not started');
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/dir/page.html': PAGE,
    '/old': (_req, res) => res.writeHead(301, { Location: '/dir/page.html', 'Content-Type': 'text/html' }).end('<html><head></head><body>moved</body></html>'),
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-view-'));
  record = join(dir, 'opened.txt');
  browser = join(dir, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" > '${record}'\n`);
  chmodSync(browser, 0o755);
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seine view', () => {
  it('opens the fetched page in the BROWSER, saved with a <base> tag for its relative links', async () => {
    rmSync(record, { force: true });
    const url = site.url('/dir/page.html');
    const result = await runView(['--nolog', url], { ...process.env, BROWSER: browser });
    expect(result).toEqual({ status: 0, signal: null, stdout: '', stderr: '' });
    const opened = await recordedArgument();
    expect(opened).toMatch(/^file:\/\/\/.+\.html$/);
    const saved = readFileSync(fileURLToPath(opened), 'utf8');
    expect(saved.startsWith(`<html><head><base href="${url}">`)).toBe(true);
    expect(saved.endsWith('<title>Styled</title><link rel="stylesheet" href="style.css"></head><body><p>page</p></body></html>')).toBe(true);
    rmSync(fileURLToPath(opened));
  }, TIMEOUT);

  it('follows a redirect (the base is the final URL); --no-redirect shows the redirect response', async () => {
    rmSync(record, { force: true });
    expect((await runView(['--nolog', site.url('/old')], { ...process.env, BROWSER: browser })).status).toBe(0);
    const followed = await recordedArgument();
    expect(readFileSync(fileURLToPath(followed), 'utf8')).toContain(`<base href="${site.url('/dir/page.html')}">`);
    rmSync(record);
    expect((await runView(['--nolog', '--no-redirect', site.url('/old')], { ...process.env, BROWSER: browser })).status).toBe(0);
    const redirect = await recordedArgument();
    const saved = readFileSync(fileURLToPath(redirect), 'utf8');
    expect(saved).toContain(`<base href="${site.url('/old')}">`);
    expect(saved).toContain('<body>moved</body>');
    rmSync(fileURLToPath(followed));
    rmSync(fileURLToPath(redirect));
  }, TIMEOUT);

  it('with no browser to start: one line naming the saved file, exit status 1', async () => {
    const emptyPath = join(dir, 'empty-bin');
    mkdirSync(emptyPath, { recursive: true });
    const env = { ...process.env, BROWSER: undefined, PATH: emptyPath };
    const result = await runView(['--nolog', site.url('/dir/page.html')], env);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^seine: No browser found to open \/\S+\.html .*set BROWSER/);
    expect(result.stderr.split('\n')).toHaveLength(2);
    const file = /open (\S+\.html)/.exec(result.stderr)![1]!;
    expect(readFileSync(file, 'utf8')).toContain('<base href=');
    rmSync(file);
  }, TIMEOUT);

  it('refuses a URL without its scheme with a usage error (exit status 2)', async () => {
    expect(await runView(['--nolog', 'example.com'], { ...process.env, BROWSER: browser })).toEqual({
      status: 2,
      signal: null,
      stdout: '',
      stderr: "seine: 'example.com' is not a full URL: write the full URL with its scheme, e.g. http://example.com (http, https and file URLs) — run 'seine view --help' for usage\n",
    });
  }, TIMEOUT);
});
