/**
 * The browser from the commands, through the real binary: `seine fetch
 * --browser`, `seine shell --browser` and `fetch(url, { playwright: true })`
 * in the shell, `seine parse --browser` in a project, and `view()` of a
 * rendered response.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ensureBuilt, ROOT, runSeine } from '../cli/fixtures/run-seine.js';
import { startJsSite, type JsSite } from '../helpers/js-site.js';

const TIMEOUT = 90_000;
/** seine with `input` on its standard input (spawned asynchronously: the test's site answers from this process). */
function seineWithInput(args: string[], input: string, env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'seine.js'), ...args], { cwd: dir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

let site: JsSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startJsSite();
  dir = mkdtempSync(join(tmpdir(), 'seine-browser-commands-'));
}, 120_000);
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seine fetch --browser', () => {
  it('prints the rendered HTML, where a plain fetch prints the page without its quotes', async () => {
    const rendered = await runSeine(['fetch', '--nolog', '--browser', site.url('/quotes/1')], dir);
    expect(rendered.status).toBe(0);
    expect(rendered.stdout).toContain('<div class="quote"><span class="text">It is our choices that show what we truly are.</span>');
    const plain = await runSeine(['fetch', '--nolog', site.url('/quotes/1')], dir);
    expect(plain.stdout).not.toContain('<div class="quote">');
  }, TIMEOUT);
});

describe('seine shell', () => {
  it('--browser renders the target; fetch(url, { playwright: true }) renders another page; a plain fetch does not', async () => {
    const script = [
      "response.css('div.quote small.author::text').getall()",
      "fetch('" + site.url('/quotes/2') + "')",
      "response.css('div.quote').length",
      "fetch('" + site.url('/quotes/2') + "', { playwright: true })",
      "response.css('div.quote small.author::text').getall()",
      "response.flags",
    ].join('\n');
    const result = await seineWithInput(['shell', '--nolog', '--browser', site.url('/quotes/1')], `${script}\n`, { SEINE_SHELL: 'ts' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      "[ 'Albert Einstein', 'J.K. Rowling' ]",
      '0',
      "[ 'Albert Einstein', 'Steve Martin' ]",
      "[ 'playwright' ]",
    ]);
  }, TIMEOUT);

  it('view() of a rendered response opens the rendered page', async () => {
    const opener = join(dir, 'opener.sh');
    // The browser is given a file:// URL, and is started without being waited for.
    writeFileSync(opener, `#!/bin/sh\ncp "\${1#file://}" ${JSON.stringify(join(dir, 'viewed.part'))} && mv ${JSON.stringify(join(dir, 'viewed.part'))} ${JSON.stringify(join(dir, 'viewed.html'))}\n`);
    chmodSync(opener, 0o755);
    const result = await seineWithInput(['shell', '--nolog', '--browser', site.url('/quotes/1'), '-c', 'view(response)'], '', { BROWSER: `${opener} %s` });
    expect(result.status).toBe(0);
    const deadline = Date.now() + 10_000;
    while (!existsSync(join(dir, 'viewed.html')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const viewed = readFileSync(join(dir, 'viewed.html'), 'utf8');
    expect(viewed).toContain(`<base href="${site.url('/quotes/1')}">`);
    expect(viewed).toContain('<span class="text">It is our choices that show what we truly are.</span>');
  }, TIMEOUT);
});

describe('seine parse --browser', () => {
  it("runs the spider's callback on the rendered page", async () => {
    expect((await runSeine(['startproject', 'jsproject'], dir)).status).toBe(0);
    const project = join(dir, 'jsproject');
    writeFileSync(join(project, 'jsproject', 'spiders', 'quotes.ts'), `import { Spider, type Response } from 'seine';

export class QuotesSpider extends Spider {
  static name = 'quotes';
  allowedDomains = ['127.0.0.1'];

  *parse(response: Response) {
    for (const quote of response.css('div.quote')) yield { author: quote.css('small.author::text').get() };
  }
}
`);
    const rendered = await runSeine(['parse', '--nolog', '--browser', site.url('/quotes/1')], project);
    expect(rendered.status).toBe(0);
    expect(rendered.stdout).toContain("{ author: 'Albert Einstein' }");
    expect(rendered.stdout).toContain("{ author: 'J.K. Rowling' }");
    const plain = await runSeine(['parse', '--nolog', site.url('/quotes/1')], project);
    expect(plain.stdout).not.toContain('author');
  }, TIMEOUT);
});
