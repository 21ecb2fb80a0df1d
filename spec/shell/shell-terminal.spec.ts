/**
 * `seine shell` at a real terminal (a pseudo-terminal, fixtures/pty-run.py):
 * the `[s]` lines, the objects, TypeScript input, fetch without await
 * (redirects, redirect: false, a 500, a network failure, a replaced
 * request), completion, history, and the ways out.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestSite } from '../helpers/site-server.js';
import { ensureBuilt } from '../cli/fixtures/run-seine.js';
import { startShellSite } from './fixtures/shell-site.js';
import { Terminal } from './fixtures/terminal.js';

let site: TestSite;
let home: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startShellSite();
  home = mkdtempSync(join(tmpdir(), 'seine-shell-home-'));
});

afterAll(async () => {
  await site.close();
  rmSync(home, { recursive: true, force: true });
});

function shell(args: readonly string[], env: Record<string, string> = {}): Terminal {
  return new Terminal(['shell', ...args], { cwd: home, env: { HOME: home, ...env } });
}

describe('seine shell at a terminal (ts console)', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = shell([site.url('/'), '--nolog']);
    await t.waitFor(/seine> $/);
  });

  afterAll(() => t.kill());

  it('lists its objects and shortcuts on [s] lines before the first prompt', () => {
    const banner = t.text.split('seine> ')[0]!.trim().split('\n');
    expect(banner.every((line) => line.startsWith('[s] '))).toBe(true);
    expect(banner).toEqual(expect.arrayContaining([
      '[s] Available seine objects:',
      "[s]   crawler    <Crawler spider='default'>",
      '[s]   item       {}',
      `[s]   request    <GET ${site.url('/')}>`,
      `[s]   response   <200 ${site.url('/')}>`,
      "[s]   settings   <Settings BOT_NAME='seinebot'>",
      "[s]   spider     <DefaultSpider 'default'>",
      '[s] Useful shortcuts:',
    ]));
    expect(banner.some((line) => line.startsWith('[s]   seine      '))).toBe(true);
    expect(banner.some((line) => line.startsWith('[s]   fetch(url'))).toBe(true);
    expect(banner.some((line) => line.startsWith('[s]   view(response)'))).toBe(true);
  });

  it('evaluates against the response, printing selectors in their repr form', async () => {
    expect(await t.run('response.status')).toContain('\n200\n');
    expect(await t.run('response.css("title")')).toContain("[<Selector query='descendant-or-self::title' data='<title>Home</title>'>]");
    expect(await t.run('response.css(".text::text").getall()')).toContain("[ 'First quote', 'Second quote' ]");
    expect(await t.run('seine.Request.name')).toContain("'Request'");
    expect(await t.run('settings.get("BOT_NAME")')).toContain("'seinebot'");
  });

  it('accepts TypeScript: annotations, as, interfaces, multi-line input', async () => {
    await t.run('interface Quote { text: string }');
    expect(await t.run('const quotes: Quote[] = response.css(".text::text").getall().map((text) => ({ text }) as Quote); quotes.length')).toContain('\n2\n');
    t.type('function shout(s: string): string {\r');
    await t.waitFor(/\.\.\. $/, { from: t.text.length - 4 });
    expect(await t.run('return s.toUpperCase() }')).toBeDefined();
    expect(await t.run('shout(quotes[0]!.text)')).toContain("'FIRST QUOTE'");
  });

  it('prints a seine error as one line, without a stack', async () => {
    const shown = await t.run('response.css("p")[3]');
    expect(shown).toContain('IndexError: list index out of range');
    expect(shown).not.toContain('    at ');
  });

  it('fetch(url) follows a redirect and updates request and response before the next prompt, with no await', async () => {
    const shown = await t.run(`fetch("${site.url('/redirect')}"); [response.status, response.url, request.url]`);
    expect(shown.replace(/\s+/g, ' ')).toContain(`[ 200, '${site.url('/target')}', '${site.url('/redirect')}' ]`);
  });

  it('fetch(url, { redirect: false }) keeps the 3xx response', async () => {
    await t.run(`fetch("${site.url('/redirect')}", { redirect: false })`);
    expect(await t.run('[response.status, response.headers.get("location")]')).toContain("[ 302, '/target' ]");
  });

  it('fetch of a 500 keeps the response with its status', async () => {
    await t.run(`fetch("${site.url('/error')}")`);
    expect(await t.run('[response.status, response.css("title::text").get()]')).toContain("[ 500, 'Broken' ]");
  });

  it('a network failure prints one line and keeps the previous objects', async () => {
    const shown = await t.run('fetch("http://no-such-host.invalid/")');
    expect(shown).toContain("ShellFetchError: <GET http://no-such-host.invalid/> failed: DNS lookup failed: address 'no-such-host.invalid' not found");
    expect(shown).not.toContain('    at ');
    expect(await t.run('response.url')).toContain(`'${site.url('/error')}'`);
  });

  it('fetch(request) sends a replaced request', async () => {
    await t.run(`fetch("${site.url('/echo')}")`);
    await t.run("fetch(request.replace({ method: 'POST' }))");
    expect(await t.run('[request.method, response.text]')).toContain("[ 'POST', 'method=POST' ]");
    expect(site.requests.filter((r) => r.path === '/echo').map((r) => r.method)).toEqual(['GET', 'POST']);
  });

  it('shelp() prints the [s] lines for the current objects', async () => {
    const shown = await t.run('shelp()');
    expect(shown).toContain('[s] Available seine objects:');
    expect(shown).toContain(`[s]   request    <POST ${site.url('/echo')}>`);
    expect(shown).toContain(`[s]   response   <200 ${site.url('/echo')}>`);
  });

  it('completes the properties of the shell objects with Tab', async () => {
    const from = t.text.length;
    t.type('response.foll\t');
    await t.waitFor('response.follow', { from });
    t.type('\x15'); // Ctrl-U: clear the line
    t.type('response.st\t');
    await t.waitFor('response.status', { from });
    t.type('\x15\r');
    await t.waitFor(/seine> $/, { from });
  });

  it('leaves on Ctrl-D with status 0 and keeps the history in ~/.seine_history', async () => {
    t.type('\x04');
    expect(await t.exited).toBe(0);
    const history = readFileSync(join(home, '.seine_history'), 'utf8');
    expect(history).toContain('response.css("title")');
    expect(history).toContain("fetch(request.replace({ method: 'POST' }))");
  });
});

describe('leaving the shell', () => {
  it.each(['quit()', 'exit()'])('%s leaves with status 0', async (command) => {
    const t = shell(['--nolog']);
    await t.waitFor(/seine> $/);
    t.type(`${command}\r`);
    expect(await t.exited).toBe(0);
  });
});

describe('the node console', () => {
  it('is the plain Node REPL: `> ` prompt, the same objects, no TypeScript', async () => {
    const t = shell([site.url('/'), '--nolog'], { SEINE_SHELL: 'node' });
    try {
      await t.waitFor(/\n> $/);
      expect(await t.run('response.css("title::text").get()', '> ')).toContain("'Home'");
      expect(await t.run('const n: number = 1', '> ')).toMatch(/SyntaxError/);
      await t.run(`fetch("${site.url('/target')}")`, '> ');
      expect(await t.run('response.url', '> ')).toContain(`'${site.url('/target')}'`);
      t.type('\x04');
      expect(await t.exited).toBe(0);
      expect(existsSync(join(home, '.node_repl_history'))).toBe(true);
    } finally {
      t.kill();
    }
  });
});
