/**
 * `seine fetch <url>` through the real binary against a server on
 * 127.0.0.1 that this file starts: the body (byte for byte) on stdout,
 * --headers, redirects followed or not, error statuses, the one-line
 * errors, and the project's spider for the URL with its own settings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { SEINE_VERSION } from '../../src/version.js';
import { ROOT, ensureBuilt, logMessages, runSeine } from './fixtures/run-seine.js';

const TIMEOUT = 60_000;
const PAGE = '<html><head><title>Hello</title></head><body><p>héllo</p></body></html>';
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x0a, 0x80]);

// A project spider for 127.0.0.1 with its own User-Agent: fetch must pick it and apply its settings.
const LOCAL_SPIDER = `import { Spider } from 'seine';

export class LocalSpider extends Spider {
  static name = 'local';
  static customSettings = { USER_AGENT: 'local-spider-agent' };
  allowedDomains = ['127.0.0.1'];
}
`;
const OTHER_SPIDER = `import { Spider } from 'seine';

export class OtherSpider extends Spider {
  static name = 'other';
  static customSettings = { USER_AGENT: 'other-spider-agent' };
  allowedDomains = ['example.com'];
}
`;

let site: TestSite;
let dir: string;
let project: string;

/** `seine <args>` with stdout as bytes. */
function runSeineBytes(args: readonly string[], cwd: string): Promise<{ status: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'bin', 'seine.js'), ...args], { cwd, encoding: 'buffer' }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : (error as { code?: number }).code ?? null, stdout, stderr: stderr.toString('utf8') });
    });
  });
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/page': PAGE,
    '/binary': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(BINARY),
    '/headers': (_req, res) => res.writeHead(200, [['Content-Type', 'text/plain'], ['X-Seen', 'one'], ['X-Seen', 'two']]).end('with headers'),
    '/old': (_req, res) => res.writeHead(302, { Location: '/page', 'Content-Type': 'text/html' }).end('<p>moved</p>'),
    '/broken': (_req, res) => res.writeHead(500, { 'Content-Type': 'text/html' }).end('<p>server error page</p>'),
    '/missing': (_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<p>no such page</p>'),
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-fetch-'));
  expect((await runSeine(['startproject', 'tutorial'], dir)).status).toBe(0);
  project = join(dir, 'tutorial');
  writeFileSync(join(project, 'tutorial', 'spiders', 'local.ts'), LOCAL_SPIDER);
  writeFileSync(join(project, 'tutorial', 'spiders', 'other.ts'), OTHER_SPIDER);
}, 120_000);

beforeEach(() => site.reset());

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seine fetch', () => {
  it('prints the body followed by a newline on stdout, and logs the crawl on stderr', async () => {
    const result = await runSeine(['fetch', site.url('/page')], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${PAGE}\n`);
    const messages = logMessages(result.stderr);
    expect(messages).toContain('Spider opened');
    expect(messages).toContain(`Crawled (200) <GET ${site.url('/page')}> (referer: None)`);
    expect(messages).toContain('Spider closed (finished)');
  }, TIMEOUT);

  it('prints a binary body byte for byte', async () => {
    const result = await runSeineBytes(['fetch', '--nolog', site.url('/binary')], dir);
    expect(result.status).toBe(0);
    expect(result.stdout.equals(Buffer.concat([BINARY, Buffer.from('\n')]))).toBe(true);
  }, TIMEOUT);

  it('--nolog leaves stderr empty', async () => {
    expect(await runSeine(['fetch', '--nolog', site.url('/page')], dir)).toEqual({ status: 0, signal: null, stdout: `${PAGE}\n`, stderr: '' });
  }, TIMEOUT);

  it('--headers prints the request headers (>), a lone >, then every response header value (<)', async () => {
    const result = await runSeine(['fetch', '--nolog', '--headers', site.url('/headers')], dir);
    expect(result.status).toBe(0);
    const [request, response] = result.stdout.split('>\n');
    expect(request).toBe(
      '> Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\n' +
      '> Accept-Language: en\n' +
      `> User-Agent: seine/${SEINE_VERSION}\n`,
    );
    expect(response).toMatch(/^< Content-Type: text\/plain\n< X-Seen: one\n< X-Seen: two\n< Date: .+\n/);
    expect(response!.split('\n').filter((line) => line !== '').every((line) => line.startsWith('< '))).toBe(true);
    expect(result.stdout).not.toContain('with headers');
  }, TIMEOUT);

  it('follows a redirect and prints the final page', async () => {
    const result = await runSeine(['fetch', site.url('/old')], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${PAGE}\n`);
    expect(site.hits).toEqual(['/old', '/page']);
    expect(logMessages(result.stderr)).toContain(`Redirecting (302) to <GET ${site.url('/page')}> from <GET ${site.url('/old')}>`);
  }, TIMEOUT);

  it('--no-redirect prints the 3xx response itself; with --headers its Location', async () => {
    const body = await runSeine(['fetch', '--nolog', '--no-redirect', site.url('/old')], dir);
    expect(body).toEqual({ status: 0, signal: null, stdout: '<p>moved</p>\n', stderr: '' });
    const headers = await runSeine(['fetch', '--headers', '--no-redirect', site.url('/old')], dir);
    expect(headers.status).toBe(0);
    expect(headers.stdout).toContain('>\n< Location: /page\n');
    expect(logMessages(headers.stderr)).toContain(`Crawled (302) <GET ${site.url('/old')}> (referer: None)`);
    expect(site.hits).toEqual(['/old', '/old']);
  }, TIMEOUT);

  it('prints the body of an error status: a 404 at once, a 500 after the retries', async () => {
    expect(await runSeine(['fetch', '--nolog', site.url('/missing')], dir)).toEqual({ status: 0, signal: null, stdout: '<p>no such page</p>\n', stderr: '' });
    const result = await runSeine(['fetch', site.url('/broken')], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('<p>server error page</p>\n');
    expect(site.hits.filter((path) => path === '/broken')).toHaveLength(3);
    expect(logMessages(result.stderr)).toContain(`Gave up retrying <GET ${site.url('/broken')}> (failed 3 times): 500 Internal Server Error`);
  }, TIMEOUT);

  it('fetches a local file given as a file:// URL', async () => {
    const file = join(dir, 'local page.html');
    writeFileSync(file, '<p>local</p>');
    expect(await runSeine(['fetch', '--nolog', pathToFileURL(file).href], dir)).toEqual({ status: 0, signal: null, stdout: '<p>local</p>\n', stderr: '' });
  }, TIMEOUT);

  it('refuses a URL without its scheme with a usage error (exit status 2) that shows the full URL', async () => {
    const result = await runSeine(['fetch', '--nolog', '127.0.0.1:8000/page'], dir);
    expect(result).toEqual({
      status: 2,
      signal: null,
      stdout: '',
      stderr: "seine: '127.0.0.1:8000/page' is not a full URL: write the full URL with its scheme, e.g. http://127.0.0.1:8000/page (http, https and file URLs) — run 'seine fetch --help' for usage\n",
    });
    // With the log on, the same line ends the startup lines.
    const logged = await runSeine(['fetch', 'index.html'], dir);
    expect(logged.status).toBe(2);
    expect(logged.stderr.trimEnd().split('\n').at(-1)).toBe(
      `seine: 'index.html' is not a full URL: write the full URL with its scheme, e.g. http://index.html, or ${pathToFileURL(join(dir, 'index.html')).href} for a local file (http, https and file URLs) — run 'seine fetch --help' for usage`,
    );
  }, TIMEOUT);

  it('a host that does not resolve: one line, exit status 1', async () => {
    expect(await runSeine(['fetch', '--nolog', 'http://no-such-host.invalid/'], dir)).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: "seine: DNS lookup failed: address 'no-such-host.invalid' not found\n",
    });
  }, TIMEOUT);

  it('a refused connection: one line after the retries, no stack trace, exit status 1', async () => {
    const closed = await startSite({});
    const url = closed.url('/');
    await closed.close();
    const port = new URL(url).port;
    const result = await runSeine(['fetch', url], dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      `seine: Connection was refused by other side: 127.0.0.1:${port} (getting ${url}). Check that the server is running and listens on that port.`,
    );
    expect(logMessages(result.stderr)).toContain('Spider closed (finished)');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }, TIMEOUT);
});

describe('seine fetch in a project', () => {
  it("uses the project's spider whose allowedDomains cover the URL, with its customSettings", async () => {
    const result = await runSeine(['fetch', site.url('/page')], project);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${PAGE}\n`);
    // The project's settings.ts applies too: robots.txt is asked first.
    expect(site.requests.map((hit) => [hit.path, hit.headers['user-agent']])).toEqual([
      ['/robots.txt', 'local-spider-agent'],
      ['/page', 'local-spider-agent'],
    ]);
  }, TIMEOUT);

  it('--spider NAME uses that spider; an unknown name lists the spiders', async () => {
    expect((await runSeine(['fetch', '--nolog', '--spider', 'other', site.url('/page')], project)).status).toBe(0);
    expect(site.requests.map((hit) => hit.headers['user-agent'])).toEqual(['other-spider-agent', 'other-spider-agent']);
    expect(await runSeine(['fetch', '--nolog', '--spider', 'nope', site.url('/page')], project)).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: 'seine: Spider not found: nope (available spiders: local, other)\n',
    });
  }, TIMEOUT);

  it('a request forbidden by robots.txt: one line saying why, exit status 1', async () => {
    const guarded = await startSite({ '/robots.txt': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /\n'), '/page': PAGE });
    try {
      expect(await runSeine(['fetch', '--nolog', guarded.url('/page')], project)).toEqual({
        status: 1,
        signal: null,
        stdout: '',
        stderr: `seine: No response downloaded for: ${guarded.url('/page')} (Forbidden by robots.txt)\n`,
      });
    } finally {
      await guarded.close();
    }
  }, TIMEOUT);
});
