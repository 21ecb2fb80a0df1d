import { describe, expect, it } from '@jest/globals';
import { IgnoreRequest, NotConfigured } from '../../../src/contracts/control-flow.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { RedirectMiddleware, decodeLocation, resolveLocation } from '../../../src/middlewares/downloader/redirect.js';
import { Spider } from '../../../src/contracts/spider.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

const LOGGER = 'seine.downloadermiddlewares.redirect';

function setup(settings: Record<string, unknown> = {}, spider?: Spider) {
  const crawler = fakeCrawler(settings, spider);
  return { crawler, mw: RedirectMiddleware.fromCrawler(crawler), spider: crawler.spider };
}

function redirectResponse(request: Request, status: number, location: string | null): Response {
  return new Response({ url: request.url, status, headers: location === null ? {} : { Location: location }, request });
}

function follow(mw: RedirectMiddleware, request: Request, status: number, location: string, spider: Spider): Request {
  const result = mw.processResponse(request, redirectResponse(request, status, location), spider);
  expect(result).toBeInstanceOf(Request);
  return result as Request;
}

const post = (url = 'http://a.test/form') =>
  new Request(url, { method: 'POST', body: 'q=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '3', 'X-Keep': 'k' } });

describe('RedirectMiddleware: method rules', () => {
  it('keeps a GET a GET for every redirect status', () => {
    const { mw, spider } = setup();
    for (const status of [301, 302, 303, 307, 308]) {
      const next = follow(mw, new Request('http://a.test/'), status, 'http://a.test/new', spider);
      expect([status, next.method, next.url]).toEqual([status, 'GET', 'http://a.test/new']);
    }
  });

  it('turns a POST into a GET without body, Content-Type or Content-Length on 301, 302 and 303', () => {
    const { mw, spider } = setup();
    for (const status of [301, 302, 303]) {
      const next = follow(mw, post(), status, '/done', spider);
      expect([status, next.method, next.body.length, next.headers.has('Content-Type'), next.headers.has('Content-Length'), next.headers.get('X-Keep')]).toEqual([
        status, 'GET', 0, false, false, 'k',
      ]);
    }
  });

  it('keeps the method, body and headers of a POST on 307 and 308', () => {
    const { mw, spider } = setup();
    for (const status of [307, 308]) {
      const next = follow(mw, post(), status, '/again', spider);
      expect([status, next.method, next.body.toString(), next.headers.get('Content-Type'), next.url]).toEqual([
        status, 'POST', 'q=1', 'application/x-www-form-urlencoded', 'http://a.test/again',
      ]);
    }
  });

  it('turns other methods into GET on 302 and 303 (Scrapy 2.8), keeps them on 301', () => {
    const { mw, spider } = setup();
    const put = () => new Request('http://a.test/x', { method: 'PUT', body: 'data' });
    expect([302, 303].map((status) => follow(mw, put(), status, '/y', spider).method)).toEqual(['GET', 'GET']);
    const moved = follow(mw, put(), 301, '/y', spider);
    expect([moved.method, moved.body.toString()]).toEqual(['PUT', 'data']);
  });

  it('keeps HEAD a HEAD on every status', () => {
    const { mw, spider } = setup();
    for (const status of [301, 302, 303, 307, 308]) {
      expect(follow(mw, new Request('http://a.test/', { method: 'HEAD' }), status, '/b', spider).method).toBe('HEAD');
    }
  });
});

describe('RedirectMiddleware: Location', () => {
  it('resolves relative, absolute-path and scheme-relative Locations against the request URL', () => {
    const { mw, spider } = setup();
    const request = new Request('https://a.test/dir/page?x=1');
    expect(follow(mw, request, 302, 'other', spider).url).toBe('https://a.test/dir/other');
    expect(follow(mw, request, 302, '/root', spider).url).toBe('https://a.test/root');
    expect(follow(mw, request, 302, '?y=2', spider).url).toBe('https://a.test/dir/page?y=2');
    expect(follow(mw, request, 302, '//b.test/path', spider).url).toBe('https://b.test/path');
    expect(follow(mw, request, 302, '///c.test/path', spider).url).toBe('https://c.test/path');
  });

  it('percent-encodes spaces and non-ASCII characters', () => {
    const { mw, spider } = setup();
    expect(follow(mw, new Request('http://a.test/'), 301, '/a b/é', spider).url).toBe('http://a.test/a%20b/%C3%A9');
  });

  it('reads a Location sent as raw UTF-8 bytes (arriving as latin1 text) as UTF-8', () => {
    const raw = Buffer.from('/café', 'utf8').toString('latin1');
    expect(decodeLocation(raw)).toBe('/café');
    expect(decodeLocation('/caf\u00e9')).toBe('/caf\u00e9');
    expect(decodeLocation('/plain')).toBe('/plain');
    const { mw, spider } = setup();
    expect(follow(mw, new Request('http://a.test/'), 302, raw, spider).url).toBe('http://a.test/caf%C3%A9');
  });

  it('does not follow a Location to another scheme than http(s), or one that is not a URL', () => {
    expect(resolveLocation('file:///etc/passwd', 'http://a.test/')).toBeNull();
    expect(resolveLocation('javascript:alert(1)', 'http://a.test/')).toBeNull();
    expect(resolveLocation('http://[bad', 'http://a.test/')).toBeNull();
    const { crawler, mw, spider } = setup();
    const request = new Request('http://a.test/');
    for (const location of ['ftp://a.test/file', 'data:text/html,hi', 'http://[bad']) {
      const response = redirectResponse(request, 302, location);
      expect(mw.processResponse(request, response, spider)).toBe(response);
    }
    // Scrapy 2.8 followed them all (file: too); seine says why it does not (docs/security.md, "Redirects").
    expect(crawler.lines(LOGGER)).toEqual([
      [LOGGER, 'WARNING', "Refusing to follow the redirect (302) of <GET http://a.test/> to 'ftp://a.test/file': not an http(s) URL"],
      [LOGGER, 'WARNING', "Refusing to follow the redirect (302) of <GET http://a.test/> to 'data:text/html,hi': not an http(s) URL"],
      [LOGGER, 'WARNING', "Refusing to follow the redirect (302) of <GET http://a.test/> to 'http://[bad': not a valid URL"],
    ]);
    expect(crawler.stats.getAll()).toEqual({ 'redirect/refused_scheme': 2, 'redirect/refused_invalid': 1 });
  });

  it('passes on a redirect status without Location, and statuses that are not redirects', () => {
    const { mw, spider } = setup();
    const request = new Request('http://a.test/');
    for (const [status, location] of [[301, null], [302, null], [200, '/x'], [304, '/x'], [300, '/x'], [404, '/x']] as const) {
      const response = redirectResponse(request, status, location);
      expect(mw.processResponse(request, response, spider)).toBe(response);
    }
  });
});

describe('RedirectMiddleware: loops (docs/security.md, "Redirects")', () => {
  it('drops a redirect back into its own chain with one WARNING showing the chain, and counts it', () => {
    const { crawler, mw, spider } = setup();
    const b = follow(mw, new Request('http://a.test/a'), 302, '/b', spider);
    expect(() => mw.processResponse(b, redirectResponse(b, 302, '/a'), spider)).toThrow(new IgnoreRequest('redirect loop'));
    expect(crawler.lines(LOGGER).filter(([, level]) => level === 'WARNING')).toEqual([
      [LOGGER, 'WARNING', 'Redirect loop: <GET http://a.test/a> → <GET http://a.test/b> → <GET http://a.test/a> (not followed: <GET http://a.test/a> was already requested)'],
    ]);
    expect(crawler.stats.getAll()).toEqual({ 'redirect/loop': 1 });
  });

  it('shows only the loop, not the hops before it', () => {
    const { crawler, mw, spider } = setup();
    const b = follow(mw, new Request('http://a.test/start'), 301, '/b', spider);
    const c = follow(mw, b, 302, '/c', spider);
    expect(() => mw.processResponse(c, redirectResponse(c, 302, '/b'), spider)).toThrow(IgnoreRequest);
    expect(crawler.lines(LOGGER).at(-1)?.[2]).toBe('Redirect loop: <GET http://a.test/b> → <GET http://a.test/c> → <GET http://a.test/b> (not followed: <GET http://a.test/b> was already requested)');
  });

  it('is no loop when the hop changes the method: POST /form → 303 → GET /form (post/redirect/get)', () => {
    const { crawler, mw, spider } = setup();
    const next = follow(mw, post(), 303, '/form', spider);
    expect([next.method, next.url]).toEqual(['GET', 'http://a.test/form']);
    expect(crawler.stats.getAll()).toEqual({});
  });
});

describe('RedirectMiddleware: meta, priority, logs', () => {
  it('records redirect_times, redirect_ttl, redirect_urls and redirect_reasons, and logs each redirect', () => {
    const { crawler, mw, spider } = setup();
    const first = new Request('http://a.test/1', { meta: { keep: true } });
    const second = follow(mw, first, 301, '/2', spider);
    const third = follow(mw, second, 302, '/3', spider);
    expect(third.meta).toEqual({
      keep: true,
      redirect_times: 2,
      redirect_ttl: 18,
      redirect_urls: ['http://a.test/1', 'http://a.test/2'],
      redirect_reasons: [301, 302],
    });
    expect(first.meta.redirect_ttl).toBe(20);
    expect(crawler.lines(LOGGER)).toEqual([
      [LOGGER, 'DEBUG', 'Redirecting (301) to <GET http://a.test/2> from <GET http://a.test/1>'],
      [LOGGER, 'DEBUG', 'Redirecting (302) to <GET http://a.test/3> from <GET http://a.test/2>'],
    ]);
  });

  it('raises the priority by REDIRECT_PRIORITY_ADJUST and keeps dontFilter', () => {
    const { mw, spider } = setup({ REDIRECT_PRIORITY_ADJUST: 5 });
    const next = follow(mw, new Request('http://a.test/', { priority: 1, dontFilter: true }), 302, '/b', spider);
    expect([next.priority, next.dontFilter]).toEqual([6, true]);
    expect(follow(mw, new Request('http://a.test/'), 302, '/b', spider).dontFilter).toBe(false);
  });

  it('keeps callback, errback, cbKwargs and flags', () => {
    const { mw, spider } = setup();
    function parse() {}
    function onError() {}
    const next = follow(mw, new Request('http://a.test/', { callback: parse, errback: onError, cbKwargs: { n: 1 }, flags: ['f'] }), 302, '/b', spider);
    expect([next.callback, next.errback, next.cbKwargs, next.flags]).toEqual([parse, onError, { n: 1 }, ['f']]);
  });

  it('ends a dontFilter redirect loop at REDIRECT_MAX_TIMES with IgnoreRequest and a DEBUG line, after one WARNING for the loop', () => {
    const { crawler, mw, spider } = setup({ REDIRECT_MAX_TIMES: 3 });
    let request = new Request('http://a.test/loop', { dontFilter: true });
    let thrown: unknown;
    let redirects = 0;
    try {
      for (;;) {
        request = follow(mw, request, 302, '/loop', spider);
        redirects++;
      }
    } catch (error) {
      thrown = error;
    }
    expect(redirects).toBe(3);
    expect(thrown).toBeInstanceOf(IgnoreRequest);
    expect((thrown as Error).message).toBe('max redirections reached');
    expect(crawler.lines(LOGGER).at(-1)).toEqual([LOGGER, 'DEBUG', 'Discarding <GET http://a.test/loop>: max redirections reached']);
    expect(crawler.lines(LOGGER).filter(([, level]) => level === 'WARNING')).toEqual([
      [LOGGER, 'WARNING', 'Redirect loop: <GET http://a.test/loop> → <GET http://a.test/loop> (followed: the request is dontFilter; REDIRECT_MAX_TIMES ends it)'],
    ]);
    expect(crawler.stats.getAll()).toEqual({ 'redirect/loop': 1 });
    expect(request.meta.redirect_urls).toEqual(['http://a.test/loop', 'http://a.test/loop', 'http://a.test/loop']);
  });

  it('follows no redirect when REDIRECT_MAX_TIMES is 0', () => {
    const { mw, spider } = setup({ REDIRECT_MAX_TIMES: 0 });
    const request = new Request('http://a.test/');
    expect(() => mw.processResponse(request, redirectResponse(request, 301, '/b'), spider)).toThrow(new IgnoreRequest('max redirections reached'));
  });

  it('honours a redirect_ttl set on the request', () => {
    const { mw, spider } = setup();
    const request = new Request('http://a.test/', { meta: { redirect_ttl: 1 } });
    const next = follow(mw, request, 302, '/b', spider);
    expect(next.meta.redirect_ttl).toBe(0);
    expect(() => mw.processResponse(next, redirectResponse(next, 302, '/c'), spider)).toThrow(IgnoreRequest);
  });

  it('drops meta.retry_delay_ms: the redirect goes at once', () => {
    const { mw, spider } = setup();
    const next = follow(mw, new Request('http://a.test/', { meta: { retry_times: 1, retry_delay_ms: 2000 } }), 302, '/b', spider);
    expect(next.meta.retry_delay_ms).toBeUndefined();
    expect(next.meta.retry_times).toBe(1);
  });
});

describe('RedirectMiddleware: what is left alone', () => {
  it('passes responses of requests with meta.dont_redirect', () => {
    const { mw, spider } = setup();
    const request = new Request('http://a.test/', { meta: { dont_redirect: true } });
    const response = redirectResponse(request, 301, '/b');
    expect(mw.processResponse(request, response, spider)).toBe(response);
  });

  it('passes statuses listed in meta.handle_httpstatus_list, and all with meta.handle_httpstatus_all', () => {
    const { mw, spider } = setup();
    const listed = new Request('http://a.test/', { meta: { handle_httpstatus_list: [302] } });
    const response = redirectResponse(listed, 302, '/b');
    expect(mw.processResponse(listed, response, spider)).toBe(response);
    expect(mw.processResponse(listed, redirectResponse(listed, 301, '/b'), spider)).toBeInstanceOf(Request);
    const all = new Request('http://a.test/', { meta: { handle_httpstatus_all: true } });
    const allResponse = redirectResponse(all, 307, '/b');
    expect(mw.processResponse(all, allResponse, spider)).toBe(allResponse);
  });

  it("passes statuses listed in the spider's handleHttpstatusList", () => {
    class Handles extends Spider {
      static override name = 'handles';
      handleHttpstatusList = [301];
    }
    const { mw, spider } = setup({}, new Handles());
    const request = new Request('http://a.test/');
    const response = redirectResponse(request, 301, '/b');
    expect(mw.processResponse(request, response, spider)).toBe(response);
    expect(mw.processResponse(request, redirectResponse(request, 302, '/b'), spider)).toBeInstanceOf(Request);
  });

  it('is switched off by REDIRECT_ENABLED=false', () => {
    expect(() => RedirectMiddleware.fromCrawler(fakeCrawler({ REDIRECT_ENABLED: false }))).toThrow(NotConfigured);
  });

  it('works built by hand with defaults (20 redirects, +2 priority)', () => {
    const mw = new RedirectMiddleware();
    expect([mw.maxRedirectTimes, mw.priorityAdjust]).toEqual([20, 2]);
  });
});

describe('RedirectMiddleware: credentials across sites', () => {
  const withCredentials = (url: string) => new Request(url, { headers: { Cookie: 'a=1', Authorization: 'Basic eDp5' } });

  it('keeps Cookie and Authorization on the same origin', () => {
    const { mw, spider } = setup();
    const next = follow(mw, withCredentials('http://a.test/1'), 302, '/2', spider);
    expect([next.headers.get('Cookie'), next.headers.get('Authorization')]).toEqual(['a=1', 'Basic eDp5']);
  });

  it('drops both when the host changes', () => {
    const { mw, spider } = setup();
    const next = follow(mw, withCredentials('http://a.test/1'), 302, 'http://b.test/2', spider);
    expect([next.headers.has('Cookie'), next.headers.has('Authorization')]).toEqual([false, false]);
  });

  it('drops Authorization but keeps Cookie when only the port changes', () => {
    const { mw, spider } = setup();
    const next = follow(mw, withCredentials('http://a.test:8000/1'), 302, 'http://a.test:9000/2', spider);
    expect([next.headers.get('Cookie'), next.headers.has('Authorization')]).toEqual(['a=1', false]);
  });

  it('keeps Cookie on an upgrade to https, drops it on a downgrade to http; Authorization goes either way', () => {
    const { mw, spider } = setup();
    const up = follow(mw, withCredentials('http://a.test/1'), 301, 'https://a.test/1', spider);
    expect([up.headers.get('Cookie'), up.headers.has('Authorization')]).toEqual(['a=1', false]);
    const down = follow(mw, withCredentials('https://a.test/1'), 301, 'http://a.test/1', spider);
    expect([down.headers.has('Cookie'), down.headers.has('Authorization')]).toEqual([false, false]);
  });

  it("does not carry the request's cookies to the redirect (they are in the jar already)", () => {
    const { mw, spider } = setup();
    const next = follow(mw, new Request('http://a.test/', { cookies: { a: '1' } }), 302, 'http://b.test/', spider);
    expect(next.cookies).toEqual({});
  });

  it('forgets a proxy chosen for the old scheme when the scheme changes', () => {
    const { mw, spider } = setup();
    const request = new Request('http://a.test/', {
      headers: { 'Proxy-Authorization': 'Basic cDpx' },
      meta: { proxy: 'http://proxy.test:3128', _scheme_proxy: true, _auth_proxy: 'http://proxy.test:3128' },
    });
    const next = follow(mw, request, 301, 'https://a.test/', spider);
    expect([next.meta.proxy, next.meta._scheme_proxy, next.meta._auth_proxy, next.headers.has('Proxy-Authorization')]).toEqual([undefined, undefined, undefined, false]);
    const same = follow(mw, request, 301, 'http://b.test/', spider);
    expect([same.meta.proxy, same.headers.get('Proxy-Authorization')]).toEqual(['http://proxy.test:3128', 'Basic cDpx']);
  });

  it('keeps a proxy the request set itself (meta.proxy without _scheme_proxy) across schemes', () => {
    const { mw, spider } = setup();
    const next = follow(mw, new Request('http://a.test/', { meta: { proxy: 'http://mine.test:1' } }), 301, 'https://a.test/', spider);
    expect(next.meta.proxy).toBe('http://mine.test:1');
  });
});
