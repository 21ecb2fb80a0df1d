/**
 * The browser download path at its edges, through the real binary and
 * Debian's Chromium: a renderer killed mid-page and a browser killed
 * mid-crawl (retried, relaunched), Ctrl-C (nothing left running), pages
 * handed to callbacks, aborted subresources, cookies, the user agent and a
 * POST through the browser, a missing Chromium, wrong settings, and
 * Playwright left unloaded by crawls that render nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureBuilt, logMessages, runSeine, startSeine } from '../cli/fixtures/run-seine.js';
import { startJsSite, type JsSite } from '../helpers/js-site.js';
import { ProcessWatcher } from '../helpers/marked-processes.js';
import { resolveLog } from '../helpers/resolve-log.js';

const TIMEOUT = 90_000;

let site: JsSite;
let dir: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startJsSite();
  dir = mkdtempSync(join(tmpdir(), 'seine-browser-edges-'));
}, 120_000);
beforeEach(() => {
  site.reset();
  site.slowMs = 1000;
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function spiderFile(name: string, body: string, extra = ''): string {
  writeFileSync(join(dir, `${name}.ts`), `import { FormRequest, PageMethod, Request, Spider, type Response } from 'seine';
${extra}
export class TheSpider extends Spider {
  static name = '${name}';
  declare base: string;
${body}
}
`);
  return `${name}.ts`;
}

const slowSpider = (name: string, paths: string[]): string => spiderFile(name, `
  async *start() {
    for (const path of ${JSON.stringify(paths)}) yield new Request(this.base + path, { meta: { playwright: true }, dontFilter: true });
  }
  *parse(response: Response) {
    yield { url: response.url, slow: response.css('p.slow::text').get() };
  }`);

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const base = (): string[] => ['-a', `base=${site.url('/').slice(0, -1)}`, '-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'RETRY_BACKOFF_BASE=0'];

describe('crashes', () => {
  it('a page whose renderer is killed while it loads is retried, and the item is scraped', async () => {
    const mark = randomUUID();
    const watcher = new ProcessWatcher('SEINE_TEST_MARK', mark);
    site.slowMs = 3000;
    const crawl = startSeine(['runspider', slowSpider('crash', ['/slow']), '-O', 'crash.json', ...base()], dir, { SEINE_TEST_MARK: mark });
    await waitFor(() => site.hits.includes('/slow'));
    site.slowMs = 200;
    const renderers = watcher.look().filter((p) => p.command.includes('--type=renderer'));
    expect(renderers.length).toBeGreaterThan(0);
    for (const renderer of renderers) process.kill(renderer.pid, 'SIGKILL');
    const run = await crawl.done;
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'crash.json'), 'utf8'))).toEqual([{ url: site.url('/slow'), slow: 'done' }]);
    expect(logMessages(run.stderr).some((line) => line.startsWith(`Retrying <GET ${site.url('/slow')}> (failed 1 times): The browser page crashed while loading`))).toBe(true);
    expect(watcher.seen.size).toBeGreaterThan(3);
    expect(await watcher.leftRunning(5000)).toEqual([]);
  }, TIMEOUT);

  it('a browser killed mid-crawl is started again, and the page it was loading is retried', async () => {
    const mark = randomUUID();
    const watcher = new ProcessWatcher('SEINE_TEST_MARK', mark);
    site.slowMs = 3000;
    const crawl = startSeine(['runspider', slowSpider('killed', ['/slow']), '-O', 'killed.json', ...base()], dir, { SEINE_TEST_MARK: mark });
    await waitFor(() => site.hits.includes('/slow'));
    site.slowMs = 200;
    const browsers = watcher.look().filter((p) => /\/(chromium|chrome)$/.test(p.command.split(' ')[0]!) && !p.command.includes('--type='));
    expect(browsers).toHaveLength(1);
    process.kill(browsers[0]!.pid, 'SIGKILL');
    const run = await crawl.done;
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'killed.json'), 'utf8'))).toEqual([{ url: site.url('/slow'), slow: 'done' }]);
    const messages = logMessages(run.stderr);
    expect(messages).toContain('The browser closed unexpectedly; the next rendered page starts a new one');
    expect(messages.some((line) => line.startsWith(`Retrying <GET ${site.url('/slow')}> (failed 1 times): The browser closed while loading`))).toBe(true);
    expect(run.stderr).toContain("'playwright/browser_count': 2,");
    expect(watcher.seen.size).toBeGreaterThan(3);
    expect(await watcher.leftRunning(5000)).toEqual([]);
  }, TIMEOUT);
});

describe('Ctrl-C', () => {
  it('once: the pages being rendered finish, the crawl closes (shutdown) and no browser process is left', async () => {
    const mark = randomUUID();
    const watcher = new ProcessWatcher('SEINE_TEST_MARK', mark);
    site.slowMs = 1500;
    const crawl = startSeine(['runspider', slowSpider('ctrlc', ['/slow?1', '/slow?2', '/slow?3', '/slow?4']), '-O', 'ctrlc.json', ...base(), '-s', 'CONCURRENT_REQUESTS=2'], dir, { SEINE_TEST_MARK: mark });
    await waitFor(() => site.hits.filter((hit) => hit.startsWith('/slow')).length >= 2);
    expect(watcher.look().length).toBeGreaterThan(2);
    crawl.child.kill('SIGINT');
    const run = await crawl.done;
    expect(run.status).toBe(0);
    expect(logMessages(run.stderr)).toContain('Spider closed (shutdown)');
    expect((JSON.parse(readFileSync(join(dir, 'ctrlc.json'), 'utf8')) as unknown[]).length).toBe(2);
    expect(watcher.seen.size).toBeGreaterThan(3);
    expect(await watcher.leftRunning(5000)).toEqual([]);
  }, TIMEOUT);

  it('twice: the forced exit takes the browser with it', async () => {
    const mark = randomUUID();
    const watcher = new ProcessWatcher('SEINE_TEST_MARK', mark);
    site.slowMs = 10_000;
    const crawl = startSeine(['runspider', slowSpider('ctrlc2', ['/slow?a', '/slow?b']), ...base()], dir, { SEINE_TEST_MARK: mark });
    await waitFor(() => site.hits.filter((hit) => hit.startsWith('/slow')).length >= 2);
    crawl.child.kill('SIGINT');
    await crawl.waitForLog(/shutting down gracefully/);
    crawl.child.kill('SIGINT');
    const run = await crawl.done;
    expect(run.status).toBe(1);
    expect(watcher.seen.size).toBeGreaterThan(3);
    expect(await watcher.leftRunning(5000)).toEqual([]);
  }, TIMEOUT);
});

describe('kill -9', () => {
  it('seine killed outright: the browser exits with it (its pipe to seine closes)', async () => {
    const mark = randomUUID();
    const watcher = new ProcessWatcher('SEINE_TEST_MARK', mark);
    site.slowMs = 10_000;
    const crawl = startSeine(['runspider', slowSpider('kill9', ['/slow']), ...base()], dir, { SEINE_TEST_MARK: mark });
    await waitFor(() => site.hits.includes('/slow'));
    expect(watcher.look().filter((p) => p.command.includes('--type=renderer')).length).toBeGreaterThan(0);
    crawl.child.kill('SIGKILL');
    await crawl.done;
    expect(await watcher.leftRunning(5000)).toEqual([]);
  }, TIMEOUT);
});

describe('pages, requests and cookies', () => {
  it('playwright_include_page hands the live page to the callback; a page left open is closed at the end with a warning', async () => {
    const file = spiderFile('pages', `
  async *start() {
    yield new Request(this.base + '/quotes/1', { meta: { playwright: true, playwright_include_page: true }, callback: this.closes });
    yield new Request(this.base + '/quotes/2', { meta: { playwright: true, playwright_include_page: true }, callback: this.forgets });
  }
  async *closes(response: Response) {
    const page = response.meta['playwright_page'] as { title(): Promise<string>; evaluate(f: string): Promise<unknown>; close(): Promise<void> };
    yield { title: await page.title(), quotes: await page.evaluate('document.querySelectorAll("div.quote").length') };
    await page.close();
  }
  *forgets(response: Response) {
    yield { open: response.meta['playwright_page'] !== undefined };
  }`);
    const run = await runSeine(['runspider', file, '-O', 'pages.json', ...base()], dir);
    expect(run.status).toBe(0);
    const items = JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')) as unknown[];
    expect(items).toEqual(expect.arrayContaining([{ title: 'Quotes', quotes: 2 }, { open: true }]));
    expect(logMessages(run.stderr)).toContain('1 browser page handed to callbacks (playwright_include_page) was still open and closed now: close them in the callback with await page.close()');
  }, TIMEOUT);

  it('PLAYWRIGHT_ABORT_REQUEST keeps the page\'s images from being downloaded', async () => {
    const file = spiderFile('abort', `
  static customSettings = { PLAYWRIGHT_ABORT_REQUEST: (request: { resourceType(): string }) => request.resourceType() === 'image' };
  async *start() {
    yield new Request(this.base + '/quotes/1', { meta: { playwright: true } });
  }
  *parse(response: Response) {
    yield { quotes: response.css('div.quote').length };
  }`);
    const run = await runSeine(['runspider', file, '-O', 'abort.json', ...base()], dir);
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'abort.json'), 'utf8'))).toEqual([{ quotes: 2 }]);
    expect(site.hits).toContain('/quotes/1');
    expect(site.hits).not.toContain('/img.png');
    expect(run.stderr).toContain("'playwright/request_count/aborted': 1,");
  }, TIMEOUT);

  it('cookies go both ways between plain and rendered downloads; the user agent and a POST body reach the server from the browser', async () => {
    const file = spiderFile('cookies', `
  async *start() {
    yield new Request(this.base + '/set-cookie', { callback: this.afterCookie });
  }
  *afterCookie(response: Response) {
    void response;
    yield new FormRequest(this.base + '/echo', { formdata: { a: '1', b: 'two' }, meta: { playwright: true }, callback: this.echoed });
  }
  *echoed(response: Response) {
    yield { step: 'rendered', method: response.css('#method::text').get(), ua: response.css('#ua::text').get(), body: response.css('#body::text').get() ?? '', cookie: response.css('#cookie::text').get() ?? '' };
    yield new Request(this.base + '/echo?plain', { callback: this.plainEcho });
  }
  *plainEcho(response: Response) {
    yield { step: 'plain', cookie: response.css('#cookie::text').get() ?? '' };
  }`);
    const run = await runSeine(['runspider', file, '-O', 'cookies.json', ...base(), '-s', 'USER_AGENT=seine-test/1.0'], dir);
    expect(run.status).toBe(0);
    const items = JSON.parse(readFileSync(join(dir, 'cookies.json'), 'utf8')) as Array<Record<string, string>>;
    expect(items.find((item) => item['step'] === 'rendered')).toEqual({ step: 'rendered', method: 'POST', ua: 'seine-test/1.0', body: 'a=1&b=two', cookie: 'session=abc123' });
    // The cookie the rendered page's response set is in the jar for the next plain request.
    expect(items.find((item) => item['step'] === 'plain')?.['cookie']?.split('; ').sort()).toEqual(['echoed=yes', 'session=abc123']);
  }, TIMEOUT);
});

describe('which requests, which contexts', () => {
  it('PLAYWRIGHT_BY_DEFAULT renders every request but one that says playwright: false; named contexts are contexts of their own', async () => {
    const file = spiderFile('bydefault', `
  static customSettings = { PLAYWRIGHT_BY_DEFAULT: true, PLAYWRIGHT_MAX_CONTEXTS: 3 };
  async *start() {
    yield new Request(this.base + '/quotes/1');
    yield new Request(this.base + '/quotes/2', { meta: { playwright: false } });
    yield new Request(this.base + '/quotes/1?ann', { meta: { playwright_context: 'ann' } });
    yield new Request(this.base + '/quotes/1?bob', { meta: { playwright_context: 'bob' } });
  }
  *parse(response: Response) {
    yield { url: response.url, quotes: response.css('div.quote').length, rendered: response.flags.includes('playwright') };
  }`);
    const run = await runSeine(['runspider', file, '-O', 'bydefault.json', ...base()], dir);
    expect(run.status).toBe(0);
    const items = JSON.parse(readFileSync(join(dir, 'bydefault.json'), 'utf8')) as Array<{ url: string }>;
    expect(items.sort((a, b) => a.url.localeCompare(b.url))).toEqual([
      { url: site.url('/quotes/1'), quotes: 2, rendered: true },
      { url: site.url('/quotes/1?ann'), quotes: 2, rendered: true },
      { url: site.url('/quotes/1?bob'), quotes: 2, rendered: true },
      { url: site.url('/quotes/2'), quotes: 0, rendered: false },
    ]);
    // The pooled context, and one for each name.
    expect(run.stderr).toContain("'playwright/context_count': 3,");
  }, TIMEOUT);

  it('meta.proxy sends the page through the proxy (a host only the proxy knows)', async () => {
    const seen: string[] = [];
    const proxy = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body><div class="quote">via the proxy</div><script>document.body.insertAdjacentHTML("beforeend", "<p class=js>ran</p>")</script></body></html>');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const file = spiderFile('proxied', `
  async *start() {
    yield new Request('http://shop.invalid/page', { meta: { playwright: true, proxy: ${JSON.stringify('PROXY')} } });
  }
  *parse(response: Response) {
    yield { quote: response.css('div.quote::text').get(), js: response.css('p.js::text').get() };
  }`.replace('"PROXY"', JSON.stringify(proxyUrl)));
      const run = await runSeine(['runspider', file, '-O', 'proxied.json', ...base(), '-s', 'ROBOTSTXT_OBEY=false'], dir);
      expect(run.status).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'proxied.json'), 'utf8'))).toEqual([{ quote: 'via the proxy', js: 'ran' }]);
      expect(seen).toContain('GET http://shop.invalid/page');
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, TIMEOUT);
});

describe('limits', () => {
  it('navigation timeouts are retried then given up; robots.txt keeps the browser off disallowed pages; pages render at most contexts × pages at once', async () => {
    site.slowMs = 1500;
    const file = spiderFile('limits', `
  static customSettings = { ROBOTSTXT_OBEY: true, PLAYWRIGHT_MAX_PAGES_PER_CONTEXT: 2, CONCURRENT_REQUESTS: 8 };
  async *start() {
    for (let i = 0; i < 6; i++) yield new Request(this.base + '/slow?' + i, { meta: { playwright: true } });
    yield new Request(this.base + '/slow?timeout', { meta: { playwright: true, download_timeout: 0.3 } });
    yield new Request(this.base + '/private/page', { meta: { playwright: true } });
  }
  *parse(response: Response) {
    yield { url: response.url };
  }`);
    const run = await runSeine(['runspider', file, '-O', 'limits.json', ...base()], dir);
    expect(run.status).toBe(0);
    const items = JSON.parse(readFileSync(join(dir, 'limits.json'), 'utf8')) as Array<{ url: string }>;
    expect(items.map((item) => item.url).sort()).toEqual(Array.from({ length: 6 }, (_, i) => site.url(`/slow?${i}`)).sort());
    const messages = logMessages(run.stderr);
    expect(messages.some((line) => line.startsWith(`Gave up retrying <GET ${site.url('/slow?timeout')}> (failed 3 times): `))).toBe(true);
    expect(messages).toContain(`Forbidden by robots.txt: <GET ${site.url('/private/page')}>`);
    expect(site.hits).not.toContain('/private/page');
    // One context of 2 pages: never more than 2 pages in flight at the site.
    expect(site.inFlight.max).toBeLessThanOrEqual(2);
  }, TIMEOUT);
});

describe('setup problems are one line', () => {
  it('no Chromium on PATH: says how to install one, exit status 1', async () => {
    const run = await runSeine(['fetch', '--nolog', '--browser', site.url('/quotes/1')], dir, { PATH: dirname(process.execPath) + '/nowhere' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("seine: No Chromium found to render pages (looked for chromium, chromium-browser, google-chrome, google-chrome-stable on PATH): install one (Debian/Ubuntu: apt-get install chromium) or set PLAYWRIGHT_LAUNCH_OPTIONS = { executablePath: '/path/to/chrome' }\n");
  }, TIMEOUT);

  it('a browser type seine cannot drive, or a wrong executablePath', async () => {
    const firefox = await runSeine(['fetch', '--nolog', '--browser', '-s', 'PLAYWRIGHT_BROWSER_TYPE=firefox', site.url('/quotes/1')], dir);
    expect(firefox.status).toBe(1);
    expect(firefox.stderr).toMatch(/^seine: Setting PLAYWRIGHT_BROWSER_TYPE is "firefox" \(from the command line\): seine drives Chromium only .*use 'chromium'\n$/);
    const missing = await runSeine(['fetch', '--nolog', '--browser', '-s', 'PLAYWRIGHT_LAUNCH_OPTIONS={"executablePath": "/no/such/chrome"}', site.url('/quotes/1')], dir);
    expect(missing.stderr).toBe('seine: PLAYWRIGHT_LAUNCH_OPTIONS.executablePath is /no/such/chrome, which is not an executable file: install Chromium there or fix the path\n');
    const notChrome = await runSeine(['fetch', '--nolog', '--browser', '-s', 'PLAYWRIGHT_LAUNCH_OPTIONS={"executablePath": "/bin/true"}', site.url('/quotes/1')], dir);
    expect(notChrome.status).toBe(1);
    expect(notChrome.stderr).toMatch(/^seine: Cannot start the browser \/bin\/true: .* — check PLAYWRIGHT_LAUNCH_OPTIONS\n$/);
  }, TIMEOUT);
});

describe('Playwright is loaded only when a page is rendered', () => {
  it('a crawl of plain pages never imports playwright-core; a rendered fetch does', async () => {
    const imports = resolveLog(dir, "specifier.includes('playwright-core')");
    const env = { NODE_OPTIONS: `--import=${imports.hook}` };
    const plain = await runSeine(['fetch', '--nolog', site.url('/static/')], dir, env);
    expect(plain.status).toBe(0);
    expect(imports.specifiers()).toEqual([]);
    const rendered = await runSeine(['fetch', '--nolog', '--browser', site.url('/quotes/1')], dir, env);
    expect(rendered.status).toBe(0);
    expect(rendered.stdout).toContain('It is our choices that show what we truly are.');
    expect(imports.specifiers().join('\n')).toContain('playwright-core');
  }, TIMEOUT);
});

describe('long crawls', () => {
  it('pooled contexts are replaced every PLAYWRIGHT_RECYCLE_CONTEXT_PAGES pages; pages are reused within a context', async () => {
    const paths = Array.from({ length: 12 }, (_, i) => `/quotes/1?${i}`);
    const file = spiderFile('recycle', `
  async *start() {
    for (const path of ${JSON.stringify(paths)}) yield new Request(this.base + path, { meta: { playwright: true } });
  }
  *parse(response: Response) {
    yield { quotes: response.css('div.quote').length };
  }`);
    const run = await runSeine(['runspider', file, '-O', 'recycle.json', ...base(), '-s', 'PLAYWRIGHT_RECYCLE_CONTEXT_PAGES=5', '-s', 'PLAYWRIGHT_MAX_PAGES_PER_CONTEXT=2'], dir);
    expect(run.status).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'recycle.json'), 'utf8')) as Array<{ quotes: number }>).map((item) => item.quotes)).toEqual(Array(12).fill(2));
    expect(run.stderr).toContain("'playwright/context_count': 3,");
    // At most 2 pages open per context, reused from one request to the next: 3 contexts × 2 pages, not 12.
    const opened = Number(/'playwright\/page_count': (\d+),/.exec(run.stderr)?.[1]);
    expect(opened).toBeGreaterThanOrEqual(3);
    expect(opened).toBeLessThanOrEqual(6);
  }, TIMEOUT);
});
