/**
 * The pages `seine serve` mounts (serviceDashboard) in headless Chromium,
 * over a job book of our own: the list at / follows the jobs live, a running
 * job's page is its crawl's live dashboard reached through the service (the
 * stream and Pause/Resume forwarded to the job's own dashboard server), and a
 * finished job's page is its summary. SEINE_DASHBOARD_SCREENSHOTS=1 writes
 * docs/images/dashboard-service.png.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../../src/browser/find-chromium.js';
import { Spider } from '../../src/contracts/spider.js';
import type { Response } from '../../src/http/response.js';
import { serviceDashboard, type ServiceJob, type ServiceJobs } from '../../src/dashboard/service-pages.js';
import { linksPage, runCrawl, startSite, type CrawlResult, type Route, type TestSite } from '../helpers/site-server.js';
import { ROOT } from '../cli/fixtures/run-seine.js';

const PAGES = 30;

let site: TestSite;
let dir: string;
let browser: Browser;
let service: Server;
let base: string;
const listeners = new Set<(job: ServiceJob) => void>();
const jobs: ServiceJob[] = [];

const job = (id: string, fields: Partial<ServiceJob>): ServiceJob => ({
  id, project: 'shop', spider: 'pages', version: 'v1', state: 'pending', start_time: null, end_time: null,
  log_url: null, items_url: null, items: null, errors: null, finish_reason: null, dashboard_port: null, ...fields,
});

const book: ServiceJobs = {
  list: () => jobs.map((j) => ({ ...j })),
  get: (id) => jobs.find((j) => j.id === id),
  onChange(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

function change(id: string, fields: Partial<ServiceJob>): void {
  const found = jobs.find((j) => j.id === id)!;
  Object.assign(found, fields);
  for (const listener of listeners) listener(found);
}

function slowPage(n: number): Route {
  const body = `<html><body>${linksPage([n + 1, n + 2].filter((m) => m <= PAGES).map((m) => `/page/${m}/`))}</body></html>`;
  return (_req, res) => {
    const timer = setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end(body), 250);
    res.on('close', () => clearTimeout(timer));
  };
}

class PagesSpider extends Spider {
  static override name = 'pages';
  override startUrls = [site.url('/page/1/')];
  override *parse(response: Response): Generator<unknown> {
    yield { url: response.url };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
  }
}

beforeAll(async () => {
  const routes: Record<string, Route> = {};
  for (let n = 1; n <= PAGES; n++) routes[`/page/${n}/`] = slowPage(n);
  site = await startSite(routes);
  dir = mkdtempSync(join(tmpdir(), 'seine-service-pages-'));
  const pages = serviceDashboard(book);
  service = createServer((request, response) => {
    void pages.handle(request, response, new URL(request.url ?? '/', 'http://service')).then((handled) => {
      if (!handled) response.writeHead(404).end('Not found\n');
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: findChromium(undefined), headless: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  service?.closeAllConnections();
  await new Promise((resolve) => service?.close(resolve));
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** scrapyd's time format, the service's local time, `secondsAgo` before now. */
function localTime(secondsAgo: number): string {
  const d = new Date(Date.now() - secondsAgo * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.000000`;
}

async function portFrom(file: string): Promise<number> {
  for (let i = 0; i < 250; i++) {
    if (existsSync(file) && readFileSync(file, 'utf8').endsWith('\n')) return Number(readFileSync(file, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the dashboard wrote no port file');
}

describe("seine serve's pages", () => {
  it('list the jobs live, show a running job through its own dashboard (Pause holds the site), and a finished job as its summary', async () => {
    const portFile = join(dir, 'job.port');
    const crawl: Promise<CrawlResult> = runCrawl(PagesSpider, { DASHBOARD_ENABLED: true, DASHBOARD_PORT_FILE: portFile, CONCURRENT_REQUESTS: 2 });
    const port = await portFrom(portFile);
    jobs.push(
      job('j1', { state: 'finished', start_time: '2026-12-07 10:00:00.000000', end_time: '2026-12-07 10:01:05.000000', items: 3, errors: 0, finish_reason: 'finished', log_url: '/logs/shop/pages/j1.log', items_url: '/items/shop/pages/j1.jl' }),
      job('j2', { state: 'running', start_time: localTime(95), dashboard_port: port }),
      job('j3<b>', { spider: '<i>quotes</i>' }),
    );
    const requested: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (request) => requested.push(request.url()));

    await page.goto(`${base}/`);
    await page.waitForSelector('#jobs tbody tr[data-job="j1"]');
    expect(await page.locator('#jobs tbody tr').count()).toBe(3);
    expect(await page.locator('tr[data-job="j1"] td').allTextContents()).toEqual(['j1', 'shop', 'pages', 'v1', 'finished', '2026-12-07 10:00:00', '1m 5s', '3', '0', 'finished', 'log items']);
    expect(await page.locator('tr[data-job="j1"] a', { hasText: 'log' }).getAttribute('href')).toBe('/logs/shop/pages/j1.log');
    expect(await page.locator('tr[data-job="j3<b>"] td').nth(2).textContent()).toBe('<i>quotes</i>');
    // A change in the book reaches the open page without a reload.
    change('j3<b>', { state: 'running', start_time: localTime(12) });
    await page.locator('tr[data-job="j3<b>"] td:nth-child(5)', { hasText: /^running$/ }).waitFor({ timeout: 5000 });
    if (process.env['SEINE_DASHBOARD_SCREENSHOTS'] === '1') await page.screenshot({ path: join(ROOT, 'docs', 'images', 'dashboard-service.png') });

    // The running job's page is its live dashboard, through the service.
    await page.click('tr[data-job="j2"] a');
    await page.waitForURL(`${base}/jobs/j2/`);
    await page.locator('#spider', { hasText: /^pages$/ }).waitFor({ timeout: 10_000 });
    await page.locator('#slots tbody tr td:first-child', { hasText: /^127\.0\.0\.1$/ }).waitFor({ timeout: 10_000 });
    await page.click('#pause');
    await page.waitForSelector('#state.paused');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const atPause = site.hits.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(site.hits.length).toBe(atPause);
    await page.click('#resume');
    await page.waitForSelector('#finish:not([hidden])', { timeout: 60_000 });
    expect(await page.locator('#finish').textContent()).toBe('Finished: finished');
    expect((await crawl).reason).toBe('finished');
    // Controls need the header, here as at the job's own server.
    expect((await fetch(`${base}/jobs/j2/api/pause`, { method: 'POST' })).status).toBe(403);

    // A finished job's page: its summary, escaped.
    change('j2', { state: 'finished', finish_reason: 'finished', items: PAGES, errors: 0 });
    await page.goto(`${base}/jobs/j1`);
    expect(page.url()).toBe(`${base}/jobs/j1/`);
    expect(await page.locator('table.summary').textContent()).toContain('finish reasonfinished');
    // All the page says is the summary: no template text leaks into it, and a finished job's page stays put.
    expect((await page.locator('body').innerText()).trim().startsWith('seine job j1')).toBe(true);
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    await page.goto(`${base}/jobs/${encodeURIComponent('j3<b>')}/`);
    expect(await page.locator('#job').textContent()).toBe('j3<b>');
    expect(await page.locator('table.summary').textContent()).toContain('spider<i>quotes</i>');
    expect((await fetch(`${base}/jobs/j1/api/pause`, { method: 'POST', headers: { 'x-seine-dashboard': '1' } })).status).toBe(409);
    await page.close();

    expect(requested.filter((u) => !u.startsWith('http://127.0.0.1:'))).toEqual([]);
  }, 120_000);
});
