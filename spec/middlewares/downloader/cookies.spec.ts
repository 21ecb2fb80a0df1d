import { describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../../src/contracts/control-flow.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { CookiesMiddleware } from '../../../src/middlewares/downloader/cookies.js';
import { RedirectMiddleware } from '../../../src/middlewares/downloader/redirect.js';
import { RetryMiddleware } from '../../../src/middlewares/downloader/retry.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

const LOGGER = 'seine.downloadermiddlewares.cookies';

function setup(settings: Record<string, unknown> = {}) {
  const crawler = fakeCrawler(settings);
  return { crawler, mw: CookiesMiddleware.fromCrawler(crawler), spider: crawler.spider };
}

function receive(mw: CookiesMiddleware, request: Request, setCookies: string[], spider = fakeCrawler().spider, status = 200): Response {
  const response = new Response({ url: request.url, status, headers: { 'Set-Cookie': setCookies }, request });
  expect(mw.processResponse(request, response, spider)).toBe(response);
  return response;
}

function send(mw: CookiesMiddleware, request: Request, spider = fakeCrawler().spider): string | null {
  mw.processRequest(request, spider);
  return request.headers.get('Cookie');
}

describe('CookiesMiddleware: the jar', () => {
  it('sends back the cookies a site set', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('http://a.test/login'), ['session=abc; Path=/', 'theme=dark'], spider);
    expect(send(mw, new Request('http://a.test/home'), spider)).toBe('session=abc; theme=dark');
  });

  it('sends nothing to another site, and no Cookie header when there is nothing to send', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('http://a.test/'), ['session=abc'], spider);
    const other = new Request('http://b.test/');
    expect(send(mw, other, spider)).toBeNull();
    expect(other.headers.has('Cookie')).toBe(false);
  });

  it('follows Domain, Path, Secure, Max-Age and deletion rules (RFC 6265)', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('https://www.a.test/app/page'), [
      'wide=1; Domain=a.test; Path=/',
      'scoped=2; Path=/app',
      'secure=3; Secure; Path=/',
      'gone=4; Max-Age=0',
      'evil=5; Domain=b.test',
    ], spider);
    expect(send(mw, new Request('https://www.a.test/app/x'), spider)).toBe('scoped=2; wide=1; secure=3');
    expect(send(mw, new Request('http://www.a.test/other'), spider)).toBe('wide=1');
    expect(send(mw, new Request('http://shop.a.test/'), spider)).toBe('wide=1');
    receive(mw, new Request('https://www.a.test/'), ['wide=; Domain=a.test; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT'], spider);
    expect(send(mw, new Request('http://shop.a.test/'), spider)).toBeNull();
  });

  it('keeps cookies for 127.0.0.1 and localhost, with ports', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('http://127.0.0.1:8123/'), ['a=1'], spider);
    receive(mw, new Request('http://localhost:8123/'), ['b=2'], spider);
    expect(send(mw, new Request('http://127.0.0.1:9999/x'), spider)).toBe('a=1');
    expect(send(mw, new Request('http://localhost/'), spider)).toBe('b=2');
  });

  it('ignores Set-Cookie lines it cannot use', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('http://www.example.co.uk/'), ['a=1; Domain=co.uk', '', 'ok=1'], spider);
    expect(send(mw, new Request('http://www.example.co.uk/'), spider)).toBe('ok=1');
  });

  it('keeps one jar per meta.cookiejar key', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('http://a.test/', { meta: { cookiejar: 1 } }), ['user=one'], spider);
    receive(mw, new Request('http://a.test/', { meta: { cookiejar: 'two' } }), ['user=two'], spider);
    receive(mw, new Request('http://a.test/'), ['user=default'], spider);
    expect(send(mw, new Request('http://a.test/', { meta: { cookiejar: 1 } }), spider)).toBe('user=one');
    expect(send(mw, new Request('http://a.test/', { meta: { cookiejar: 'two' } }), spider)).toBe('user=two');
    expect(send(mw, new Request('http://a.test/', { meta: { cookiejar: '1' } }), spider)).toBeNull();
    expect(send(mw, new Request('http://a.test/'), spider)).toBe('user=default');
    expect(send(mw, new Request('http://a.test/', { meta: { cookiejar: null } }), spider)).toBe('user=default');
  });

  it('exposes each jar for inspection', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('http://a.test/', { meta: { cookiejar: 'k' } }), ['x=1'], spider);
    expect(mw.jar('k').getCookieStringSync('http://a.test/')).toBe('x=1');
    expect(mw.jar().getCookieStringSync('http://a.test/')).toBe('');
  });

  it('neither reads nor fills the jar for requests with meta.dont_merge_cookies', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('http://a.test/', { meta: { dont_merge_cookies: true } }), ['ignored=1'], spider);
    receive(mw, new Request('http://a.test/'), ['kept=1'], spider);
    const own = new Request('http://a.test/', { headers: { Cookie: 'mine=1' }, meta: { dont_merge_cookies: true } });
    expect(send(mw, own, spider)).toBe('mine=1');
    expect(send(mw, new Request('http://a.test/'), spider)).toBe('kept=1');
  });
});

describe("CookiesMiddleware: a request's own cookies", () => {
  it('keeps cookies given in the Cookie header, over jar cookies of the same name', () => {
    const { mw, spider } = setup();
    receive(mw, new Request('http://a.test/'), ['session=jar', 'theme=dark'], spider);
    expect(send(mw, new Request('http://a.test/', { headers: { Cookie: 'session=mine' } }), spider)).toBe('session=mine; theme=dark');
  });

  it('does not store Cookie header cookies in the jar', () => {
    const { mw, spider } = setup();
    send(mw, new Request('http://a.test/', { headers: { Cookie: 'once=1' } }), spider);
    expect(send(mw, new Request('http://a.test/'), spider)).toBeNull();
  });

  it('stores Request cookies (object and list forms) in the jar for later requests', () => {
    const { mw, spider } = setup();
    expect(send(mw, new Request('http://a.test/', { cookies: { currency: 'USD' } }), spider)).toBe('currency=USD');
    expect(send(mw, new Request('https://a.test/shop/x', { cookies: [{ name: 'cart', value: '7', path: '/shop', secure: true }] }), spider)).toBe('cart=7; currency=USD');
    expect(send(mw, new Request('http://a.test/shop/y'), spider)).toBe('currency=USD');
    expect(send(mw, new Request('https://a.test/shop/y'), spider)).toBe('cart=7; currency=USD');
  });

  it('stores a Request cookie with a Domain for the whole domain, and skips one for another site', () => {
    const { mw, spider } = setup();
    send(mw, new Request('http://www.a.test/', { cookies: [{ name: 'wide', value: '1', domain: 'a.test' }, { name: 'bad', value: '1', domain: 'b.test' }] }), spider);
    expect(send(mw, new Request('http://shop.a.test/'), spider)).toBe('wide=1');
    expect(send(mw, new Request('http://b.test/'), spider)).toBeNull();
  });

  it('warns about a Request cookie without name or value, as Scrapy', () => {
    const { crawler, mw, spider } = setup();
    const cookies = [{ value: 'x' }, { name: 'n' }, { name: 'ok', value: '1' }] as unknown as Array<{ name: string; value: string }>;
    expect(send(mw, new Request('http://a.test/', { cookies }), spider)).toBe('ok=1');
    expect(crawler.lines(LOGGER)).toEqual([
      [LOGGER, 'WARNING', "Invalid cookie found in request <GET http://a.test/>: {'value': 'x'} ('name' is missing)"],
      [LOGGER, 'WARNING', "Invalid cookie found in request <GET http://a.test/>: {'name': 'n'} ('value' is missing)"],
    ]);
  });

  it('reads the jar afresh for a retry of a request it already set cookies on', () => {
    const crawler = fakeCrawler();
    const mw = CookiesMiddleware.fromCrawler(crawler);
    const retry = new RetryMiddleware({ backoffBase: 0 });
    const spider = crawler.spider;
    receive(mw, new Request('http://a.test/'), ['session=old'], spider);
    const request = new Request('http://a.test/page', { headers: { Cookie: 'pref=mine' } });
    expect(send(mw, request, spider)).toBe('pref=mine; session=old');
    receive(mw, request, ['session=new'], spider, 503);
    const again = retry.processResponse(request, new Response({ url: request.url, status: 503, request }), spider) as Request;
    expect(send(mw, again, spider)).toBe('pref=mine; session=new');
  });

  it('sends the jar of the new site, and not the old Cookie header, after a cross-site redirect', () => {
    const crawler = fakeCrawler();
    const mw = CookiesMiddleware.fromCrawler(crawler);
    const redirect = RedirectMiddleware.fromCrawler(crawler);
    const spider = crawler.spider;
    receive(mw, new Request('http://b.test/'), ['b=1'], spider);
    const request = new Request('http://a.test/', { headers: { Cookie: 'given=1' } });
    send(mw, request, spider);
    const response = receive(mw, request, [], spider, 302).replace({ headers: { Location: 'http://b.test/next' } });
    const next = redirect.processResponse(request, response, spider) as Request;
    expect(send(mw, next, spider)).toBe('b=1');
  });

  it('keeps the given cookies on a same-site redirect, with the jar read for the new URL', () => {
    const crawler = fakeCrawler();
    const mw = CookiesMiddleware.fromCrawler(crawler);
    const redirect = RedirectMiddleware.fromCrawler(crawler);
    const spider = crawler.spider;
    const request = new Request('http://a.test/login', { headers: { Cookie: 'given=1' } });
    send(mw, request, spider);
    const response = new Response({ url: request.url, status: 302, headers: { Location: '/area/home', 'Set-Cookie': 'auth=ok; Path=/area' }, request });
    mw.processResponse(request, response, spider);
    const next = redirect.processResponse(request, response, spider) as Request;
    expect(send(mw, next, spider)).toBe('given=1; auth=ok');
  });
});

describe('CookiesMiddleware: COOKIES_DEBUG', () => {
  it('logs cookies sent and received in Scrapy’s format', () => {
    const { crawler, mw, spider } = setup({ COOKIES_DEBUG: true });
    receive(mw, new Request('http://a.test/'), ['a=1; Path=/', 'b=2'], spider);
    send(mw, new Request('http://a.test/x'), spider);
    expect(crawler.lines(LOGGER)).toEqual([
      [LOGGER, 'DEBUG', 'Received cookies from: <200 http://a.test/>\nSet-Cookie: a=1; Path=/\n\nSet-Cookie: b=2\n'],
      [LOGGER, 'DEBUG', 'Sending cookies to: <GET http://a.test/x>\nCookie: a=1; b=2\n'],
    ]);
  });

  it('logs nothing when there are no cookies either way, or when COOKIES_DEBUG is off', () => {
    const debug = setup({ COOKIES_DEBUG: true });
    receive(debug.mw, new Request('http://a.test/'), [], debug.spider);
    send(debug.mw, new Request('http://a.test/'), debug.spider);
    expect(debug.crawler.logs).toEqual([]);
    const quiet = setup();
    receive(quiet.mw, new Request('http://a.test/'), ['a=1'], quiet.spider);
    send(quiet.mw, new Request('http://a.test/'), quiet.spider);
    expect(quiet.crawler.logs).toEqual([]);
  });
});

describe('CookiesMiddleware.fromCrawler', () => {
  it('is switched off by COOKIES_ENABLED=false', () => {
    expect(() => CookiesMiddleware.fromCrawler(fakeCrawler({ COOKIES_ENABLED: false }))).toThrow(NotConfigured);
  });

  it('reads COOKIES_DEBUG', () => {
    expect([setup().mw.debug, setup({ COOKIES_DEBUG: 'True' }).mw.debug]).toEqual([false, true]);
  });
});
