/**
 * `seine shell` with piped input (a script), and what happens before a
 * console opens: every target form, the bare-name DNS error, no target,
 * the console's choice (SEINE_SHELL over seine.cfg), -s and a project's
 * settings and spider.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestSite } from '../helpers/site-server.js';
import { ensureBuilt } from '../cli/fixtures/run-seine.js';
import { startShellSite } from './fixtures/shell-site.js';
import { runPiped } from './fixtures/piped.js';

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startShellSite();
  dir = mkdtempSync(join(tmpdir(), 'seine-shell-piped-'));
  mkdirSync(join(dir, 'pages', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'pages', 'local.html'), '<html><head><title>Local page</title></head><body><p>on disk</p></body></html>');
  writeFileSync(join(dir, 'index.html'), '<html><head><title>Index</title></head></html>');
});

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({ HOME: dir });

describe('piped input', () => {
  it('evaluates line after line until the end of input, each fetch finished before the next line; only results reach stdout', async () => {
    const script = [
      'response.css("title::text").get()',
      `fetch("${site.url('/target')}")`,
      'response.css("title::text").get()',
      'const n: number = response.status',
      'n + 1',
      'for (const p of ["/", "/echo"]) {',
      '  console.log(p)',
      '}',
      '',
    ].join('\n');
    const run = await runPiped(['shell', site.url('/'), '--nolog'], script, { cwd: dir, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("'Home'\n'Target'\n201\n/\n/echo\n");
    expect(run.stderr).toContain('[s] Available seine objects:'); // the banner goes to stderr when piped
  });

  it('accepts import declarations: seine from the running copy, TypeScript type imports dropped', async () => {
    const script = [
      "import { Selector, Request as R } from 'seine'",
      "import type { Response } from 'seine'",
      "new Selector({ text: '<p>imported</p>' }).css('p::text').get()",
      'R === seine.Request',
      "import { inspectResponse } from 'seine/shell'",
      'typeof inspectResponse',
      "import { nothing } from 'no-such-package'",
      '',
    ].join('\n');
    const run = await runPiped(['shell', '--nolog'], script, { cwd: dir, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("'imported'\ntrue\n'function'\n");
    expect(run.stdout).toContain("Cannot find package 'no-such-package'");
    expect(run.stdout).not.toContain('    at ');
  });

  it('stops at quit() and ignores the lines after it', async () => {
    const run = await runPiped(['shell', site.url('/'), '--nolog'], '1 + 1\nquit()\n2 + 2\n', { cwd: dir, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('2\n');
  });
});

describe('-c CODE', () => {
  it('evaluates the code, prints its result (a string as it is) and exits 0', async () => {
    const run = await runPiped(['shell', site.url('/'), '--nolog', '-c', 'response.css("title::text").get()'], '', { cwd: dir, env: env() });
    expect(run).toMatchObject({ status: 0, stdout: 'Home\n' });
    expect(run.stderr).toBe('');
    const typed = await runPiped(['shell', site.url('/'), '--nolog', '-c', `fetch("${site.url('/target')}"); const n: number = response.status; n`], '', { cwd: dir, env: env() });
    expect(typed).toMatchObject({ status: 0, stdout: '200\n' });
  });

  it('exits 1 when the code fails, with the error on one line', async () => {
    const run = await runPiped(['shell', site.url('/'), '--nolog', '-c', 'response.css("p")[5]'], '', { cwd: dir, env: env() });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('Uncaught IndexError: list index out of range\n');
  });
});

describe('the objects and view()', () => {
  it('view(response) opens the page, with a <base> tag, in the browser BROWSER names, and returns true', async () => {
    const browser = join(dir, 'browser.sh');
    const record = join(dir, 'opened.txt');
    writeFileSync(browser, `#!/bin/sh\necho "$1" > ${record}\n`, { mode: 0o755 });
    const run = await runPiped(['shell', site.url('/'), '--nolog'], 'view(response)\n', { cwd: dir, env: { ...env(), BROWSER: browser } });
    expect(run.stdout).toBe('true\n');
    for (let i = 0; i < 100 && !existsSync(record); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const opened = readFileSync(record, 'utf8').trim();
    expect(opened).toMatch(/^file:\/\/.*seine-view-[0-9a-f]+\.html$/);
    expect(readFileSync(fileURLToPath(opened), 'utf8')).toContain(`<head><base href="${site.url('/')}"><meta charset="utf-8"><title>Home</title>`);
  });

  it('fetch(42) and view() before any fetch say what they need, without a stack', async () => {
    const run = await runPiped(['shell', '--nolog'], 'fetch(42)\nview()\n', { cwd: dir, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('ShellUsageError: fetch() takes a URL (a string) or a seine.Request');
    expect(run.stdout).toContain('ShellUsageError: view() shows a response: fetch a page first');
    expect(run.stdout).not.toContain('    at ');
  });

  it('crawler is the running crawler: its stats count the fetches', async () => {
    const run = await runPiped(['shell', site.url('/'), '--nolog'], `fetch("${site.url('/target')}")\ncrawler.stats.get("downloader/response_count")\ncrawler.spider === spider\n`, { cwd: dir, env: env() });
    expect(run.stdout).toBe('2\ntrue\n');
  });
});

describe('targets', () => {
  const title = 'response.css("title::text").get()\nresponse.url\n';

  it.each([
    ['./pages/local.html', dir],
    ['../local.html', 'sub'],
    ['ABS', dir],
    ['FILE_URL', dir],
  ])('opens the local file %s', async (form, where) => {
    const path = join(dir, 'pages', 'local.html');
    const target = form === 'ABS' ? path : form === 'FILE_URL' ? pathToFileURL(path).href : form;
    const cwd = where === 'sub' ? join(dir, 'pages', 'sub') : dir;
    const run = await runPiped(['shell', target, '--nolog'], title, { cwd, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`'Local page'\n'${pathToFileURL(path).href}'\n`);
  });

  it('reads a bare index.html as a host name: the DNS error, a hint, exit 1, no session', async () => {
    const run = await runPiped(['shell', 'index.html', '--nolog'], 'response.url\n', { cwd: dir, env: env() });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("DNS lookup failed: address 'index.html' not found");
    expect(run.stderr).toContain('./index.html');
    expect(run.stderr).not.toContain('[s]');
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  }, 20_000);

  it('without a target starts with no request and no response', async () => {
    const run = await runPiped(['shell', '--nolog'], 'response\nrequest\nspider\n', { cwd: dir, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("null\nnull\n<DefaultSpider 'default'>\n");
    expect(run.stderr).not.toContain('[s]   response');
  });

  it('follows a redirect of the target unless --no-redirect', async () => {
    const followed = await runPiped(['shell', site.url('/redirect'), '--nolog'], 'response.status\n', { cwd: dir, env: env() });
    expect(followed.stdout).toBe('200\n');
    const kept = await runPiped(['shell', site.url('/redirect'), '--nolog', '--no-redirect'], 'response.status\n', { cwd: dir, env: env() });
    expect(kept.stdout).toBe('302\n');
  });

  it('keeps a 500 target: the console opens on it', async () => {
    const run = await runPiped(['shell', site.url('/error'), '--nolog', '-s', 'RETRY_ENABLED=false'], 'response.status\n', { cwd: dir, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('500\n');
  });

  it('logs the fetch unless --nolog, and takes -s settings', async () => {
    const run = await runPiped(['shell', site.url('/echo'), '-s', 'USER_AGENT=shell-test/1'], '', { cwd: dir, env: env() });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`Crawled (200) <GET ${site.url('/echo')}> (referer: None)`);
    expect(site.requests.filter((r) => r.path === '/echo').at(-1)?.headers['user-agent']).toBe('shell-test/1');
  });
});

describe('choosing the console', () => {
  let project: string;

  beforeAll(() => {
    project = join(dir, 'proj');
    mkdirSync(join(project, 'proj', 'spiders'), { recursive: true });
    writeFileSync(join(project, 'seine.cfg'), '[settings]\ndefault = proj.settings\nshell = node\n');
    writeFileSync(join(project, 'proj', 'settings.ts'), "export const BOT_NAME = 'proj';\nexport const SPIDER_MODULES = ['proj.spiders'];\nexport const USER_AGENT = 'proj-agent/2';\n");
    writeFileSync(join(project, 'proj', 'spiders', 'local.ts'), [
      "import { Spider } from 'seine';",
      'export class LocalSpider extends Spider {',
      "  static name = 'local';",
      "  allowedDomains = ['127.0.0.1'];",
      '}',
      '',
    ].join('\n'));
  });

  // The node console rejects type annotations; the ts console accepts them.
  const probe = 'const x: number = 1\n';

  it("uses `shell = node` from seine.cfg's [settings]", async () => {
    const run = await runPiped(['shell', '--nolog'], probe, { cwd: project, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/SyntaxError/);
  });

  it('SEINE_SHELL wins over seine.cfg', async () => {
    const run = await runPiped(['shell', '--nolog'], probe, { cwd: project, env: { ...env(), SEINE_SHELL: 'ts' } });
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(/SyntaxError/);
  });

  it('SEINE_SHELL is a list: the first known console wins', async () => {
    const run = await runPiped(['shell', '--nolog'], probe, { cwd: dir, env: { ...env(), SEINE_SHELL: 'node,ts' } });
    expect(run.stdout).toMatch(/SyntaxError/);
  });

  it('an unknown console lists the valid ones, and no session starts', async () => {
    const run = await runPiped(['shell', site.url('/'), '--nolog'], '1\n', { cwd: dir, env: { ...env(), SEINE_SHELL: 'ipython' } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Unknown console 'ipython' in SEINE_SHELL: the consoles are ts, node");
    expect(run.stdout).toBe('');
  });

  it("inside a project: the project's settings, and the spider whose allowedDomains cover the URL", async () => {
    const run = await runPiped(['shell', site.url('/echo'), '--nolog'], 'spider\nsettings.get("BOT_NAME")\n', { cwd: project, env: env() });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("<LocalSpider 'local'>\n'proj'\n");
    expect(site.requests.filter((r) => r.path === '/echo').at(-1)?.headers['user-agent']).toBe('proj-agent/2');
  });

  it('--spider names the spider; outside a project it says there is none', async () => {
    const named = await runPiped(['shell', 'data:text/html,<p>x</p>', '--nolog', '--spider', 'local'], 'spider\n', { cwd: project, env: env() });
    expect(named.stdout).toBe("<LocalSpider 'local'>\n");
    const outside = await runPiped(['shell', '--nolog', '--spider', 'local'], '', { cwd: dir, env: env() });
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain('No seine.cfg found');
  });
});
