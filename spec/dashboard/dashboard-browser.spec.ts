/**
 * `seine runspider … --dashboard` in real headless Chromium (playwright-core):
 * the page loads from the crawl's own server with nothing from elsewhere,
 * the charts draw and move, the slot table names the site, Pause stops
 * requests at the site, Resume lets the crawl finish and the page says how
 * it ended, Stop closes gracefully. SEINE_DASHBOARD_SCREENSHOTS=1 writes the
 * docs' screenshots (docs/images/dashboard-*.png).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../../src/browser/find-chromium.js';
import { linksPage, startSite, type Route, type TestSite } from '../helpers/site-server.js';
import { ROOT, ensureBuilt, runSeine, startSeine, type RunningSeine } from '../cli/fixtures/run-seine.js';

const PAGES = 40;
const SCREENSHOTS = process.env['SEINE_DASHBOARD_SCREENSHOTS'] === '1';

const SPIDER = `import { Spider, Request, type Response } from 'seine';

export class PagesSpider extends Spider {
  static name = 'pages';

  async *start() {
    yield new Request('http://127.0.0.1:8000/page/1/', { callback: this.parsePage });
  }

  *parsePage(response: Response) {
    if (response.url.endsWith('/page/7/')) throw new Error('page 7 has no price');
    yield { url: response.url, title: response.css('title::text').get() };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parsePage);
  }
}
`;

let site: TestSite;
let dir: string;
let browser: Browser;
let running: RunningSeine | undefined;

/** A page answered after 250 ms, linking the next two: a crawl of ~40 pages that takes a few seconds at 2 at a time. */
function slowPage(n: number): Route {
  const body = `<html><head><title>Page ${n}</title></head><body>${linksPage([n + 1, n + 2].filter((m) => m <= PAGES).map((m) => `/page/${m}/`))}</body></html>`;
  return (_req, res) => {
    const timer = setTimeout(() => res.writeHead(n === 9 ? 429 : 200, { 'Content-Type': 'text/html' }).end(body), 250);
    res.on('close', () => clearTimeout(timer));
  };
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Record<string, Route> = {};
  for (let n = 1; n <= PAGES; n++) routes[`/page/${n}/`] = slowPage(n);
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-dashboard-'));
  writeFileSync(join(dir, 'pages.ts'), SPIDER.replaceAll('http://127.0.0.1:8000', site.url('').replace(/\/$/, '')));
  browser = await chromium.launch({ executablePath: findChromium(undefined), headless: true });
}, 180_000);

afterEach(() => {
  if (running !== undefined && running.child.exitCode === null) running.child.kill('SIGKILL');
  running = undefined;
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const COMMON = ['-s', 'TELNETCONSOLE_ENABLED=false', '-s', 'CONCURRENT_REQUESTS=2', '-s', 'RETRY_ENABLED=false', '-s', 'LOGSTATS_INTERVAL=0'];

async function startCrawl(): Promise<{ url: string; seine: RunningSeine }> {
  site.reset();
  const seine = startSeine(['runspider', 'pages.ts', '--dashboard', ...COMMON], dir);
  running = seine;
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    seine.child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const found = /Dashboard at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
      if (found !== null) resolve(found[1]!);
    });
    void seine.done.then((run) => reject(new Error(`seine exited before its dashboard's line:\n${run.stderr}`)));
  });
  return { url, seine };
}

/** Opens the page, recording every URL the browser asks for. */
async function openPage(url: string, requested: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(url);
  return page;
}

const waitFor = async (check: () => boolean, timeoutMs: number, what: string): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('the dashboard of one crawl, in Chromium', () => {
  it('draws the crawl live; Pause stops requests at the site, Resume lets it finish, and the page shows the finish reason', async () => {
    const { url, seine } = await startCrawl();
    const requested: string[] = [];
    const page = await openPage(url, requested);

    // The charts are canvases with a size, and their data grows a point a second.
    await page.locator('#chart-pages canvas').waitFor();
    const canvas = await page.locator('#chart-pages canvas').boundingBox();
    expect(canvas?.width).toBeGreaterThan(100);
    expect(canvas?.height).toBeGreaterThan(50);
    // The tests are compiled without the DOM's types: the page's window is reached through globalThis.
    type ChartWindow = { seineDashboard: { charts: { pages: { data: number[][] } } } };
    const points = (): Promise<number> => page.evaluate(() => (globalThis as unknown as ChartWindow).seineDashboard.charts.pages.data[0]!.length);
    const first = await points();
    await page.waitForFunction((n) => (globalThis as unknown as ChartWindow).seineDashboard.charts.pages.data[0]!.length > n + 1, first, { timeout: 10_000 });

    // The slot table names the site's host (127.0.0.1) with its responses.
    await page.locator('#slots tbody tr td:nth-child(9)', { hasText: /^[1-9]\d*$/ }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#slots tbody tr td').first().textContent()).toBe('127.0.0.1');

    // Pause: the requests already at the site finish, and no new one arrives for 2.5 s.
    await waitFor(() => site.hits.length >= 4, 20_000, 'a few requests');
    await page.click('#pause');
    await page.waitForSelector('#state.paused');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const atPause = site.hits.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(site.hits.length).toBe(atPause);
    expect(atPause).toBeLessThan(PAGES);
    expect(await page.locator('#resume').isEnabled()).toBe(true);

    // /metrics is Prometheus text with the crawl's counters.
    const metrics = await (await fetch(`${url}metrics`)).text();
    for (const line of metrics.split('\n').filter((l) => l !== '' && !l.startsWith('#'))) {
      expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? -?[0-9.e+-]+$/);
    }
    expect(metrics).toContain('# TYPE seine_responses_total counter');
    expect(Number(/^seine_responses_total\{status="200"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(metrics).toMatch(/^seine_crawl_paused 1$/m);
    expect(metrics).toMatch(/^seine_slot_active_requests\{slot="127\.0\.0\.1"\} \d+$/m);
    if (SCREENSHOTS) await page.screenshot({ path: join(ROOT, 'docs', 'images', 'dashboard-paused.png'), fullPage: true });

    // Resume: the crawl goes on to its end, the page says how it ended, and the command exits.
    await page.click('#resume');
    await page.waitForSelector('#finish:not([hidden])', { timeout: 60_000 });
    expect(await page.locator('#finish').textContent()).toBe('Finished: finished');
    const run = await seine.done;
    expect(run.status).toBe(0);
    expect(new Set(site.hits).size).toBe(PAGES);
    // The spider's error is listed with its traceback, and the 429 counts as a ban on the slot.
    expect(await page.locator('#errors summary').first().textContent()).toContain('page 7 has no price');
    expect(await page.locator('#errors pre').first().textContent()).toContain('parsePage');
    expect(await page.locator('#slots tbody tr td:nth-child(10)').first().textContent()).toBe('1');
    expect(await page.locator('#statuses').textContent()).toContain('429');
    if (SCREENSHOTS) await page.screenshot({ path: join(ROOT, 'docs', 'images', 'dashboard-finished.png'), fullPage: true });
    await page.close();

    // Everything the page asked for came from the crawl's own server.
    expect(requested.length).toBeGreaterThan(4);
    expect(requested.filter((u) => !u.startsWith(url))).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${url}assets/uplot.js`, `${url}assets/uplot.css`, `${url}assets/dashboard.js`]));
  }, 120_000);

  it('a bad --dashboard port, or another address without a password, is one line and nothing crawled', async () => {
    site.reset();
    const port = await runSeine(['runspider', 'pages.ts', '--dashboard', 'eighty', ...COMMON], dir);
    expect(port.status).toBe(2);
    expect(port.stderr.split('\n').filter((line) => line.startsWith('seine:'))).toEqual([
      "seine: --dashboard takes a port number (0-65535), got 'eighty': write --dashboard 8080, or --dashboard alone for any free port — run 'seine runspider --help' for usage",
    ]);
    const bind = await runSeine(['runspider', 'pages.ts', '--dashboard', '-s', 'DASHBOARD_BIND=0.0.0.0', ...COMMON], dir);
    expect(bind.status).toBe(1);
    expect(bind.stderr).toMatch(/^seine: DASHBOARD_BIND is '0\.0\.0\.0', which is not a loopback address, and no DASHBOARD_USERNAME and DASHBOARD_PASSWORD are set: .*$/m);
    expect(site.hits).toEqual([]);
  }, 60_000);

  it('Stop closes the crawl gracefully (finish reason shutdown)', async () => {
    const { url, seine } = await startCrawl();
    const page = await openPage(url, []);
    await waitFor(() => site.hits.length >= 3, 20_000, 'a few requests');
    await page.click('#stop');
    await page.waitForSelector('#finish:not([hidden])', { timeout: 30_000 });
    expect(await page.locator('#finish').textContent()).toBe('Finished: shutdown');
    const run = await seine.done;
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("'finish_reason': 'shutdown'");
    expect(new Set(site.hits).size).toBeLessThan(PAGES);
    await page.close();
  }, 60_000);
});
