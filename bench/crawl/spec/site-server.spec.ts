import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sitePage } from '../site-page.js';
import { startSiteServer } from '../site-server.js';

let site: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  site = await startSiteServer(20);
});
afterAll(async () => site.close());

describe('the benchmark site server', () => {
  it('serves page n at /page/n/ as UTF-8 HTML and 404 elsewhere, robots.txt included', async () => {
    const page = await fetch(`${site.url}/page/3/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toBe(sitePage(3, 20));
    expect((await fetch(`${site.url}/robots.txt`)).status).toBe(404);
    expect((await fetch(`${site.url}/page/21/`)).status).toBe(404);
  });

  it('counts what it served since the last /__hits and starts again', async () => {
    await fetch(`${site.url}/__hits`);
    for (const path of ['/page/1/', '/page/1/', '/page/2/', '/robots.txt', '/nope']) await (await fetch(site.url + path)).arrayBuffer();
    expect(await (await fetch(`${site.url}/__hits`)).json()).toEqual({ pages: 3, distinctPages: 2, robots: 1, notFound: 1 });
    expect(await (await fetch(`${site.url}/__hits`)).json()).toEqual({ pages: 0, distinctPages: 0, robots: 0, notFound: 0 });
  });
});
