import { afterEach, describe, expect, it } from '@jest/globals';
import { Request, Spider, type Response } from '../../src/index.js';
import { runCrawl, startSite, type Route, type TestSite } from '../helpers/site-server.js';
import { sessionSite } from './session-site.js';

const PAGES = 20;
let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

function pageRoutes(route: Route, pages = PAGES): Record<string, Route> {
  const routes: Record<string, Route> = {};
  for (let n = 1; n <= pages; n++) routes[`/page/${n}`] = route;
  return routes;
}

function pagesSpider(base: TestSite, pages = PAGES) {
  return class PagesSpider extends Spider {
    static override name = 'pages';
    calls = 0;
    override async *start() {
      for (let n = 1; n <= pages; n++) yield new Request(base.url(`/page/${n}`));
    }
    override parse(response: Response) {
      this.calls++;
      return [{ path: response.css('h1::text').get(), sid: response.css('.sid::text').get() ?? null, session: response.meta.session_id, captcha: response.css('.captcha').length > 0 }];
    }
  };
}

const SESSIONS = { SESSIONS_ENABLED: true, SESSIONS_BLOCKED_SELECTOR: '.captcha', LOG_LEVEL: 'INFO' } as const;

describe('SessionsMiddleware', () => {
  it('scrapes every page once through captcha pages and 403s, retiring blocked sessions, no item from a captcha page', async () => {
    const pushback = sessionSite({ captchaAfter: 3, forbidden: (sid) => sid % 3 === 0 });
    site = await startSite(pageRoutes(pushback.route));
    const { items, stats } = await runCrawl(pagesSpider(site), { ...SESSIONS, SESSIONS_POOL_SIZE: 3, CONCURRENT_REQUESTS: 4 });
    const paths = items.map((item) => item['path']).sort();
    expect(paths).toEqual(Array.from({ length: PAGES }, (_, i) => `/page/${i + 1}`).sort());
    expect(items.filter((item) => item['captcha'] === true)).toEqual([]);
    for (const item of items) expect(typeof item['session']).toBe('string');
    // The site did push back, both ways, and each blocked response moved its request to another session.
    expect(stats['sessions/blocked/selector']).toBeGreaterThan(0);
    expect(stats['sessions/blocked/status_403']).toBeGreaterThan(0);
    const blocked = (stats['sessions/blocked/selector'] as number) + (stats['sessions/blocked/status_403'] as number);
    expect(stats['sessions/rotated']).toBe(blocked);
    expect(stats['sessions/retired/blocked']).toBeGreaterThan(0);
    expect(stats['sessions/retired/blocked']).toBeLessThanOrEqual(blocked);
    expect(stats['sessions/retired']).toBe((stats['sessions/retired/blocked'] as number) + ((stats['sessions/retired/max_usage'] as number | undefined) ?? 0));
    expect(stats['sessions/gave_up']).toBeUndefined();
    expect(stats['sessions/created']).toBeGreaterThan(3);
  });

  it('retires a session after SESSIONS_MAX_USAGE requests: the server sees no cookie used more often', async () => {
    const plain = sessionSite();
    site = await startSite(pageRoutes(plain.route));
    // One request at a time, so each session's cookie is in its jar before its next request leaves.
    const { items, stats } = await runCrawl(pagesSpider(site), { ...SESSIONS, SESSIONS_POOL_SIZE: 2, SESSIONS_MAX_USAGE: 3, CONCURRENT_REQUESTS: 1 });
    expect(items).toHaveLength(PAGES);
    expect(Math.max(...plain.perSid.values())).toBe(3);
    expect([...plain.perSid.values()].reduce((a, b) => a + b, 0)).toBe(PAGES);
    // Each session is a cookie to the server; those that sent 3 were retired, at most a pool's worth (2) were left partly used.
    const usedUp = [...plain.perSid.values()].filter((count) => count === 3).length;
    expect(stats['sessions/created']).toBe(plain.given.length);
    expect(stats['sessions/retired/max_usage']).toBe(usedUp);
    expect(plain.given.length - usedUp).toBeLessThanOrEqual(2);
    expect(usedUp).toBeGreaterThanOrEqual(6);
  });

  it('keeps a pinned session for a login flow: every request of the logged-in area carries its cookie, none is rotated', async () => {
    const logins: string[] = [];
    const routes: Record<string, Route> = {
      '/login': (_req, res) => {
        logins.push('login');
        res.writeHead(200, { 'Content-Type': 'text/html', 'Set-Cookie': 'auth=yes; Path=/' }).end('<html><body><h1>welcome</h1></body></html>');
      },
    };
    for (let n = 1; n <= 5; n++) {
      routes[`/private/${n}`] = (req, res) => {
        if (!/auth=yes/.test(req.headers.cookie ?? '')) res.writeHead(403).end('no');
        else res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body><h1>/private/${n}</h1></body></html>`);
      };
    }
    routes['/public'] = (req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body><h1>public ${req.headers.cookie ?? 'no cookie'}</h1></body></html>`);
    site = await startSite(routes);
    const base = site;
    class LoginSpider extends Spider {
      static override name = 'login';
      override async *start() {
        yield new Request(base.url('/login'), { meta: { session_id: 'me' }, callback: this.loggedIn });
      }
      *loggedIn(response: Response) {
        expect(response.meta.session_id).toBe('me');
        for (let n = 1; n <= 5; n++) yield new Request(base.url(`/private/${n}`), { meta: { session_id: 'me' } });
        yield new Request(base.url('/public'));
      }
      override parse(response: Response) {
        return [{ h1: response.css('h1::text').get(), session: response.meta.session_id }];
      }
    }
    const { items, stats } = await runCrawl(LoginSpider, { ...SESSIONS, SESSIONS_MAX_USAGE: 2 });
    expect(logins).toHaveLength(1);
    const privates = items.filter((item) => String(item['h1']).startsWith('/private/'));
    expect(privates).toHaveLength(5);
    for (const item of privates) expect(item['session']).toBe('me');
    // The pool's sessions do not share the pinned one's cookies.
    const pub = items.find((item) => String(item['h1']).startsWith('public'));
    expect(pub?.['h1']).toBe('public no cookie');
    expect(pub?.['session']).not.toBe('me');
    // Pinned sessions are not retired by SESSIONS_MAX_USAGE (6 requests, limit 2).
    expect(stats['sessions/retired/max_usage']).toBeUndefined();
  });

  it('gives a request up after SESSIONS_MAX_RETRIES rotations with one WARNING line; the blocked page never reaches the callback', async () => {
    site = await startSite({ '/wall': (_req, res) => res.writeHead(429).end('slow down') });
    const base = site;
    let calls = 0;
    class WallSpider extends Spider {
      static override name = 'wall';
      override async *start() {
        yield new Request(base.url('/wall'));
      }
      override parse() {
        calls++;
        return [];
      }
    }
    // RETRY off: a 429 is also RetryMiddleware's, which would add its own tries.
    const { logs, stats } = await runCrawl(WallSpider, { ...SESSIONS, SESSIONS_MAX_RETRIES: 2, RETRY_ENABLED: false, HTTPERROR_ALLOW_ALL: true });
    expect(calls).toBe(0);
    expect(site.hits).toEqual(['/wall', '/wall', '/wall']);
    expect(stats['sessions/rotated']).toBe(2);
    expect(stats['sessions/gave_up']).toBe(1);
    expect(stats['sessions/blocked/status_429']).toBe(3);
    const warnings = logs.filter((event) => event.message.includes('Gave up')).map((event) => `${event.level}: ${event.message}`);
    expect(warnings).toEqual([expect.stringMatching(/^WARNING: Gave up <GET http:\/\/127\.0\.0\.1:\d+\/wall>: blocked in 3 session\(s\), SESSIONS_MAX_RETRIES is 2 \(last: status 429\)$/)]);
  });

  it('gives up a pinned request whose session is blocked, saying so', async () => {
    site = await startSite({ '/account': (_req, res) => res.writeHead(403).end('no') });
    const base = site;
    class PinnedSpider extends Spider {
      static override name = 'pinned';
      override async *start() {
        yield new Request(base.url('/account'), { meta: { session_id: 'me' } });
      }
      override parse() {
        return [{ reached: true }];
      }
    }
    const { items, logs, stats } = await runCrawl(PinnedSpider, { ...SESSIONS, HTTPERROR_ALLOW_ALL: true });
    expect(items).toEqual([]);
    expect(site.hits).toEqual(['/account']);
    expect(stats['sessions/gave_up']).toBe(1);
    expect(stats['sessions/rotated']).toBeUndefined();
    expect(logs.filter((event) => event.message.includes('Gave up')).map((event) => `${event.level}: ${event.message}`)).toEqual([expect.stringMatching(/^WARNING: Gave up <GET .*\/account>: its pinned session 'me' was blocked \(status 403\)$/)]);
  });

  it("logs a spider's isBlocked that throws as one ERROR line naming it and the URL, and treats the page as not blocked", async () => {
    site = await startSite({ '/a': '<html><body><h1>a</h1></body></html>' });
    const base = site;
    class ThrowingSpider extends Spider {
      static override name = 'throwing';
      override async *start() {
        yield new Request(base.url('/a'));
      }
      isBlocked(): boolean {
        throw new Error('oops');
      }
      override parse(response: Response) {
        return [{ h1: response.css('h1::text').get() }];
      }
    }
    const { items, logs, stats } = await runCrawl(ThrowingSpider, SESSIONS);
    expect(items).toEqual([{ h1: 'a' }]);
    expect(logs.filter((event) => event.message.startsWith('Error in isBlocked')).map((event) => `${event.level}: ${event.message}`)).toEqual([expect.stringMatching(/^ERROR: Error in isBlocked\(\) of spider 'throwing' for http:\/\/127\.0\.0\.1:\d+\/a: oops \(the response counts as not blocked\)$/)]);
    expect(stats['blocking/isBlocked_errors']).toBe(1);
  });
});

describe('SessionsMiddleware with a proxy pool', () => {
  it('sends each session through its own proxy of PROXY_LIST, the same one for its whole life', async () => {
    // Two "proxies" that answer forward-proxy requests themselves, saying which proxy they are.
    const proxies: Array<{ server: import('node:http').Server; url: string; seen: string[] }> = [];
    const { createServer } = await import('node:http');
    for (let i = 0; i < 2; i++) {
      const seen: string[] = [];
      const server = createServer((req, res) => {
        seen.push(req.url ?? '');
        res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body><h1>${req.url}</h1><p class="via">${i}</p></body></html>`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      proxies.push({ server, seen, url: `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}` });
    }
    try {
      class ViaSpider extends Spider {
        static override name = 'via';
        override async *start() {
          for (let n = 1; n <= 12; n++) yield new Request(`http://example.invalid/page/${n}`);
        }
        override parse(response: Response) {
          return [{ session: response.meta.session_id, via: response.css('.via::text').get() }];
        }
      }
      const { items } = await runCrawl(ViaSpider, { ...SESSIONS, SESSIONS_POOL_SIZE: 2, PROXY_LIST: proxies.map((proxy) => proxy.url), PROXY_ROTATION: 'per-session' });
      expect(items).toHaveLength(12);
      const viaOf = new Map<unknown, Set<unknown>>();
      for (const item of items) viaOf.set(item['session'], (viaOf.get(item['session']) ?? new Set()).add(item['via']));
      expect(viaOf.size).toBe(2);
      for (const via of viaOf.values()) expect(via.size).toBe(1);
      // Round-robin hands the two sessions the two proxies.
      expect(new Set([...viaOf.values()].map((via) => [...via][0]))).toEqual(new Set(['0', '1']));
    } finally {
      for (const proxy of proxies) {
        proxy.server.closeAllConnections();
        proxy.server.close();
      }
    }
  });
});
