/**
 * The dashboard's server around a real crawl, without a browser: the port
 * file, basic auth, the guard on the controls, the JSON snapshot, and the
 * refusal to bind another address without a password.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spider } from '../../src/contracts/spider.js';
import type { Response } from '../../src/http/response.js';
import { DashboardBindError } from '../../src/dashboard/errors.js';
import { Dashboard } from '../../src/dashboard/dashboard-extension.js';
import { runCrawl, slow, startSite, type CrawlResult, type TestSite } from '../helpers/site-server.js';

let site: TestSite;
let dir: string;

beforeAll(async () => {
  site = await startSite({ '/': slow(2500, '<html><head><title>Slow</title></head><body>ok</body></html>') });
  dir = mkdtempSync(join(tmpdir(), 'seine-dashboard-server-'));
});

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

class SlowSpider extends Spider {
  static override name = 'slow';
  override startUrls = [site.url('/')];
  override *parse(response: Response): Generator<Record<string, unknown>> {
    yield { title: response.css('title::text').get() };
  }
}

async function portFrom(file: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    if (existsSync(file) && readFileSync(file, 'utf8').endsWith('\n')) return Number(readFileSync(file, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the dashboard wrote no port file');
}

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the dashboard server', () => {
  it('writes its port to DASHBOARD_PORT_FILE, asks for basic auth when a password is set, and guards the controls', async () => {
    const portFile = join(dir, 'auth.port');
    const crawl: Promise<CrawlResult> = runCrawl(SlowSpider, {
      DASHBOARD_ENABLED: true, DASHBOARD_PORT_FILE: portFile, DASHBOARD_USERNAME: 'ann', DASHBOARD_PASSWORD: 's3cret',
    });
    const base = `http://127.0.0.1:${await portFrom(portFile)}`;
    const auth = { authorization: basic('ann', 's3cret') };

    const anonymous = await fetch(`${base}/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="seine dashboard", charset="UTF-8"');
    expect((await fetch(`${base}/metrics`, { headers: { authorization: basic('ann', 'wrong') } })).status).toBe(401);
    const page = await fetch(`${base}/`, { headers: auth });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="assets/uplot.js"></script>');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");

    // A cross-site form or fetch cannot add the header; a page of another origin is refused even with it.
    expect((await fetch(`${base}/api/pause`, { method: 'POST', headers: auth })).status).toBe(403);
    expect((await fetch(`${base}/api/pause`, { method: 'POST', headers: { ...auth, 'x-seine-dashboard': '1', origin: 'http://evil.test' } })).status).toBe(403);
    const snapshot = (await (await fetch(`${base}/api/snapshot`, { headers: auth })).json()) as { spider: string; state: string; slots: Array<{ key: string }> };
    expect(snapshot.spider).toBe('slow');
    expect(snapshot.state).toBe('running');

    const paused = await fetch(`${base}/api/pause`, { method: 'POST', headers: { ...auth, 'x-seine-dashboard': '1', origin: base } });
    expect(await paused.json()).toEqual({ state: 'paused' });
    expect(await (await fetch(`${base}/api/resume`, { method: 'POST', headers: { ...auth, 'x-seine-dashboard': '1' } })).json()).toEqual({ state: 'running' });
    expect((await fetch(`${base}/assets/..%2f..%2fpackage.json`, { headers: auth })).status).toBe(404);

    const result = await crawl;
    expect(result.reason).toBe('finished');
    expect(result.items).toEqual([{ title: 'Slow' }]);
    expect(result.lines).toContain(`Dashboard at ${base}/`);
    // The server closed with the crawl.
    await expect(fetch(`${base}/`, { headers: auth })).rejects.toThrow();
  }, 30_000);

  it('Stop begins a graceful close (the page in flight goes on); a second Stop cancels it, as a second Ctrl-C', async () => {
    const portFile = join(dir, 'stop.port');
    site.reset();
    const crawl: Promise<CrawlResult> = runCrawl(SlowSpider, { DASHBOARD_ENABLED: true, DASHBOARD_PORT_FILE: portFile });
    const base = `http://127.0.0.1:${await portFrom(portFile)}`;
    const control = { method: 'POST', headers: { 'x-seine-dashboard': '1' } };
    while (site.hits.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await (await fetch(`${base}/api/stop`, control)).json()).toEqual({ stop: 'closing', state: 'closing' });
    const closing = (await (await fetch(`${base}/api/snapshot`)).json()) as { state: string };
    expect(closing.state).toBe('closing');
    expect(site.aborted).toEqual([]);
    expect(await (await fetch(`${base}/api/stop`, control)).json()).toEqual({ stop: 'cancelled', state: 'closing' });
    const result = await crawl;
    expect(result.reason).toBe('shutdown');
    // Cancelled: the slow page's transfer was aborted, not waited for.
    expect(result.items).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(site.aborted).toEqual(['/']);
  }, 30_000);

  it('refuses an address other than loopback without a username and password', () => {
    const crawler = { logBus: { getLogger: () => undefined } } as unknown as ConstructorParameters<typeof Dashboard>[0];
    const options = { port: 0, bind: '0.0.0.0', auth: null, portFile: null };
    expect(() => new Dashboard(crawler, options)).toThrow(DashboardBindError);
    expect(() => new Dashboard(crawler, options)).toThrow(
      "DASHBOARD_BIND is '0.0.0.0', which is not a loopback address, and no DASHBOARD_USERNAME and DASHBOARD_PASSWORD are set: the dashboard can pause and stop the crawl, so set both (HTTP basic auth) before binding it to another address, or leave DASHBOARD_BIND at 127.0.0.1",
    );
    expect(() => new Dashboard(crawler, { ...options, auth: { username: 'a', password: 'b' } })).not.toThrow();
  });
});
