import { afterEach, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { request } from 'node:http';
import { catalogue, startGuardedSite, type GuardedSite } from '../guarded-site.js';
import { startClientProxies, type ClientProxies } from '../client-proxy.js';

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** One request, straight to the site or through an HTTP proxy (absolute-form), with a cookie. */
function get(url: string, opts: { cookie?: string; proxy?: string; method?: string; body?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  const via = opts.proxy === undefined ? undefined : new URL(opts.proxy);
  const headers: Record<string, string> = {};
  if (opts.cookie !== undefined) headers['Cookie'] = opts.cookie;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  if (via?.username) headers['Proxy-Authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(via.username)}:${decodeURIComponent(via.password)}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = request(
      via === undefined
        ? { host: target.hostname, port: target.port, path: target.pathname + target.search, method: opts.method ?? 'GET', headers, agent: false }
        : { host: via.hostname, port: via.port, path: url, method: opts.method ?? 'GET', headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Follows the challenge: the sid cookie the site sets for this client. */
async function sidFor(site: GuardedSite, proxy?: string): Promise<string> {
  const first = await get(site.url('/product/p1'), proxy === undefined ? {} : { proxy });
  expect(first.status).toBe(302);
  const challenge = await get(site.url(first.headers['location'] as string), proxy === undefined ? {} : { proxy });
  return String(challenge.headers['set-cookie']).split(';')[0]!;
}

let site: GuardedSite | undefined;
let proxies: ClientProxies | undefined;
afterEach(async () => {
  await site?.close();
  await proxies?.close();
  site = proxies = undefined;
});

describe('the guarded site', () => {
  it('sends a page without a session cookie through the challenge, which sets one and redirects back', async () => {
    site = await startGuardedSite();
    const first = await get(site.url('/product/p3'));
    expect(first.status).toBe(302);
    expect(first.headers['location']).toBe('/challenge?next=%2Fproduct%2Fp3');
    const challenge = await get(site.url(first.headers['location'] as string));
    expect(challenge.status).toBe(302);
    expect(challenge.headers['location']).toBe('/product/p3');
    const cookie = String(challenge.headers['set-cookie']).split(';')[0]!;
    const product = await get(site.url('/product/p3'), { cookie });
    expect(product.status).toBe(200);
    expect(product.body).toContain(`<p class="price">${catalogue().products[2]!.price}</p>`);
    expect(site.stats()).toMatchObject({ challengeRedirects: 1, challenges: 1, productPages: 1, requests: 3 });
  });

  it('answers 429 with Retry-After past the quota, and bans a client that asks again before that time', async () => {
    site = await startGuardedSite({ quota: 3, windowMs: 60_000, retryAfter: 5, graceMs: 0 });
    const cookie = await sidFor(site); // 2 requests
    expect((await get(site.url('/product/p1'), { cookie })).status).toBe(200);
    const limited = await get(site.url('/product/p2'), { cookie });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('5');
    expect((await get(site.url('/product/p2'), { cookie })).status).toBe(403);
    expect((await get(site.url('/list/1'), { cookie })).status).toBe(403);
    expect(site.stats()).toMatchObject({ limited: 1, bans: 1, forbidden: 2, requestsByClient: { '127.0.0.1': 6 } });
  });

  it('serves a captcha page with status 200 once a session has fetched its share of pages', async () => {
    site = await startGuardedSite({ captchaAfter: 2 });
    const cookie = await sidFor(site);
    expect((await get(site.url('/product/p1'), { cookie })).body).toContain('class="name"');
    expect((await get(site.url('/product/p2'), { cookie })).body).toContain('class="name"');
    const third = await get(site.url('/product/p3'), { cookie });
    expect(third.status).toBe(200);
    expect(third.body).toContain('<div class="captcha">');
    expect(third.body).not.toContain('class="name"');
    expect(site.stats().captchas).toBe(1);
  });

  it('writes listing pages\' product links with a script: none in the HTML, all in the script', async () => {
    site = await startGuardedSite({ lists: 2, perList: 3 });
    const cookie = await sidFor(site);
    const list = await get(site.url('/list/1'), { cookie });
    expect(list.body).not.toContain('/product/');
    expect(list.body).toContain('<script src="/static/list-1.js">');
    expect(list.body).toContain('<a class="next" href="/list/2">');
    const script = await get(site.url('/static/list-1.js'));
    for (const id of ['p1', 'p2', 'p3']) expect(script.body).toContain(`"${id}"`);
    expect(script.body).not.toContain('"p4"');
    expect(site.stats()).toMatchObject({ listingPages: 1, listingScripts: 1 });
  });

  it('shows account pages only to the session that logged in', async () => {
    site = await startGuardedSite();
    const anonymous = await sidFor(site);
    expect((await get(site.url('/account/1'), { cookie: anonymous })).headers['location']).toBe('/login');
    const wrong = await get(site.url('/login'), { method: 'POST', body: 'user=reader&password=nope' });
    expect(wrong.body).toContain('class="error"');
    const login = await get(site.url('/login'), { method: 'POST', body: 'user=reader&password=secret' });
    expect(login.headers['location']).toBe('/account/1');
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const account = await get(site.url('/account/1'), { cookie });
    expect(account.body).toContain('<li class="order" data-id="o1">');
    expect(site.stats()).toMatchObject({ logins: 1, failedLogins: 1, loginRedirects: 1, accountPages: 1 });
  });

  it('does not accept a session cookie from another client address', async () => {
    site = await startGuardedSite();
    proxies = await startClientProxies(1);
    const cookie = await sidFor(site);
    expect((await get(site.url('/product/p1'), { cookie, proxy: proxies.urls[0]! })).status).toBe(302);
  });
});

describe('client proxies', () => {
  it('reach the site from distinct addresses, each with its own quota', async () => {
    site = await startGuardedSite({ quota: 2, windowMs: 60_000 });
    proxies = await startClientProxies(3);
    for (const proxy of proxies.urls) {
      expect((await get(site.url('/product/p1'), { proxy })).status).toBe(302);
      expect((await get(site.url('/challenge?next=/'), { proxy })).status).toBe(302);
    }
    expect(site.stats().requestsByClient).toEqual({ '127.0.0.2': 2, '127.0.0.3': 2, '127.0.0.4': 2 });
    expect((await get(site.url('/'), { proxy: proxies.urls[0]! })).status).toBe(429);
    expect((await get(site.url('/product/p1'), { proxy: proxies.urls[1]! })).status).toBe(429);
    expect(site.stats().limited).toBe(2);
    expect(proxies.proxies.map((p) => p.counts.forwarded)).toEqual([3, 3, 2]);
  });

  it('with credentials: refuse a request without them (407), and forward one with them', async () => {
    site = await startGuardedSite();
    proxies = await startClientProxies(1, { auth: { user: 'crawler', password: 's3cret' } });
    const withCredentials = proxies.urls[0]!;
    expect(withCredentials).toMatch(/^http:\/\/crawler:s3cret@127\.0\.0\.1:\d+$/);
    const bare = withCredentials.replace('crawler:s3cret@', '');
    expect((await get(site.url('/'), { proxy: bare })).status).toBe(407);
    expect((await get(site.url('/'), { proxy: withCredentials })).status).toBe(302);
    expect(proxies.proxies[0]!.counts).toEqual({ forwarded: 1, tunnels: 0, refused: 1 });
  });

  it('resolve the names they are given', async () => {
    site = await startGuardedSite();
    proxies = await startClientProxies(1, { hosts: { 'shop.guarded.test': '127.0.0.1' } });
    const answer = await get(site.url('/product/p1').replace('127.0.0.1', 'shop.guarded.test'), { proxy: proxies.urls[0]! });
    expect(answer.status).toBe(302);
    expect(site.stats().requestsByClient).toEqual({ '127.0.0.2': 1 });
  });

  it('tunnel CONNECT requests from their own address', async () => {
    site = await startGuardedSite();
    proxies = await startClientProxies(2, { hosts: { 'shop.guarded.test': '127.0.0.1' } });
    const proxy = new URL(proxies.urls[1]!);
    const target = new URL(site.origin.replace('127.0.0.1', 'shop.guarded.test'));
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(proxy.port), proxy.hostname, () => socket.write(`CONNECT ${target.host} HTTP/1.1\r\nHost: ${target.host}\r\n\r\n`));
      let text = '';
      let sent = false;
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (!sent && text.includes('\r\n\r\n')) {
          sent = true;
          socket.write(`GET /product/p1 HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`);
        }
      });
      socket.on('end', () => resolve(text)).on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 302/);
    expect(site.stats().requestsByClient).toEqual({ '127.0.0.3': 1 });
    expect(proxies.proxies[1]!.counts.tunnels).toBe(1);
  });
});
