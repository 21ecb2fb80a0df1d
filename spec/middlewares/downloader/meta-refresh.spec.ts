import { describe, expect, it } from '@jest/globals';
import { IgnoreRequest, NotConfigured } from '../../../src/contracts/control-flow.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { MetaRefreshMiddleware } from '../../../src/middlewares/downloader/meta-refresh.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

const LOGGER = 'seine.downloadermiddlewares.redirect';

function setup(settings: Record<string, unknown> = {}) {
  const crawler = fakeCrawler(settings);
  return { crawler, mw: MetaRefreshMiddleware.fromCrawler(crawler), spider: crawler.spider };
}

function page(request: Request, content: string, contentType = 'text/html; charset=utf-8'): Response {
  return new Response({
    url: request.url,
    headers: { 'Content-Type': contentType },
    body: `<html><head><meta http-equiv="refresh" content="${content}"></head><body>x</body></html>`,
    request,
  });
}

describe('MetaRefreshMiddleware', () => {
  it('follows a meta refresh with a GET, logging it and recording redirect meta', () => {
    const { crawler, mw, spider } = setup();
    const request = new Request('http://a.test/old', { method: 'POST', body: 'x=1', headers: { 'Content-Type': 'text/plain' }, priority: 1 });
    const next = mw.processResponse(request, page(request, '0; url=/new'), spider);
    expect(next).toBeInstanceOf(Request);
    const redirected = next as Request;
    expect([redirected.url, redirected.method, redirected.body.length, redirected.headers.has('Content-Type'), redirected.priority]).toEqual([
      'http://a.test/new', 'GET', 0, false, 3,
    ]);
    expect([redirected.meta.redirect_times, redirected.meta.redirect_urls, redirected.meta.redirect_reasons]).toEqual([1, ['http://a.test/old'], ['meta refresh']]);
    expect(crawler.lines(LOGGER)).toEqual([[LOGGER, 'DEBUG', 'Redirecting (meta refresh) to <GET http://a.test/new> from <POST http://a.test/old>']]);
  });

  it('follows only delays below METAREFRESH_MAXDELAY', () => {
    const { mw, spider } = setup({ METAREFRESH_MAXDELAY: 10 });
    const request = new Request('http://a.test/');
    expect(mw.processResponse(request, page(request, '9.5;url=/soon'), spider)).toBeInstanceOf(Request);
    const late = page(request, '10;url=/later');
    expect(mw.processResponse(request, late, spider)).toBe(late);
  });

  it('leaves HEAD requests, meta.dont_redirect and non-HTML responses alone', () => {
    const { mw, spider } = setup();
    for (const request of [new Request('http://a.test/', { method: 'HEAD' }), new Request('http://a.test/', { meta: { dont_redirect: true } })]) {
      const response = page(request, '0;url=/x');
      expect(mw.processResponse(request, response, spider)).toBe(response);
    }
    const request = new Request('http://a.test/data.txt');
    const text = page(request, '0;url=/x', 'text/plain');
    expect(mw.processResponse(request, text, spider)).toBe(text);
  });

  it('searches only the first 4096 characters', () => {
    const { mw, spider } = setup();
    const request = new Request('http://a.test/');
    const body = `<html><head>${' '.repeat(4096)}<meta http-equiv="refresh" content="0;url=/far"></head></html>`;
    const response = new Response({ url: request.url, headers: { 'Content-Type': 'text/html' }, body, request });
    expect(mw.processResponse(request, response, spider)).toBe(response);
  });

  it('skips refreshes inside METAREFRESH_IGNORE_TAGS', () => {
    const { mw, spider } = setup({ METAREFRESH_IGNORE_TAGS: ['noscript'] });
    const request = new Request('http://a.test/');
    const body = '<html><head><noscript><meta http-equiv="refresh" content="0;url=/js-off"></noscript></head></html>';
    const response = new Response({ url: request.url, headers: { 'Content-Type': 'text/html' }, body, request });
    expect(mw.processResponse(request, response, spider)).toBe(response);
  });

  it('does not follow a refresh to a non-http URL', () => {
    const { mw, spider } = setup();
    const request = new Request('http://a.test/');
    const response = page(request, '0;url=javascript:go()');
    expect(mw.processResponse(request, response, spider)).toBe(response);
  });

  it('counts against REDIRECT_MAX_TIMES: a dontFilter refresh loop ends with IgnoreRequest', () => {
    const { crawler, mw, spider } = setup({ REDIRECT_MAX_TIMES: 2 });
    let request = new Request('http://a.test/loop', { dontFilter: true });
    request = mw.processResponse(request, page(request, '0;url=/loop'), spider) as Request;
    request = mw.processResponse(request, page(request, '0;url=/loop'), spider) as Request;
    expect(() => mw.processResponse(request, page(request, '0;url=/loop'), spider)).toThrow(new IgnoreRequest('max redirections reached'));
    expect(crawler.lines(LOGGER).at(-1)).toEqual([LOGGER, 'DEBUG', 'Discarding <GET http://a.test/loop>: max redirections reached']);
  });

  it('is switched off by METAREFRESH_ENABLED=false, not by REDIRECT_ENABLED=false', () => {
    expect(() => MetaRefreshMiddleware.fromCrawler(fakeCrawler({ METAREFRESH_ENABLED: false }))).toThrow(NotConfigured);
    expect(MetaRefreshMiddleware.fromCrawler(fakeCrawler({ REDIRECT_ENABLED: false }))).toBeInstanceOf(MetaRefreshMiddleware);
  });

  it("uses Scrapy's defaults when built by hand", () => {
    const mw = new MetaRefreshMiddleware();
    expect([mw.maxRedirectTimes, mw.priorityAdjust, mw.maxDelay, mw.ignoreTags]).toEqual([20, 2, 100, []]);
  });
});

describe('MetaRefreshMiddleware on large pages', () => {
  function largePage(request: Request, head: string, size: number): Response {
    const start = Buffer.from(`<html><head>${head}</head><body>`, 'utf8');
    return new Response({
      url: request.url,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: Buffer.concat([start, Buffer.alloc(size - start.length, 'x')]),
      request,
    });
  }

  it('searches only the first bytes: a 2 MB page is not decoded whole (its `text` is never read)', () => {
    const { mw, spider } = setup();
    const request = new Request('http://a.test/big');
    const response = largePage(request, '<title>été</title><meta http-equiv="refresh" content="0; url=/next">', 2_000_000);
    Object.defineProperty(response, 'text', { get: () => { throw new Error('the whole body was decoded'); } });
    const next = mw.processResponse(request, response, spider);
    expect((next as Request).url).toBe('http://a.test/next');
  });

  it('finds nothing past the first 4,096 characters of a large page, as on a small one', () => {
    const { mw, spider } = setup();
    const request = new Request('http://a.test/big');
    const response = largePage(request, `<title>${'é'.repeat(5000)}</title><meta http-equiv="refresh" content="0; url=/next">`, 100_000);
    expect(mw.processResponse(request, response, spider)).toBe(response);
  });
});

describe('MetaRefreshMiddleware: loops', () => {
  it('a page that refreshes to itself: one WARNING naming the loop, redirect/loop, IgnoreRequest', () => {
    const { crawler, mw, spider } = setup();
    const request = new Request('http://a.test/self');
    expect(() => mw.processResponse(request, page(request, '0; url=/self'), spider)).toThrow(new IgnoreRequest('redirect loop'));
    expect(crawler.lines(LOGGER)).toEqual([
      [LOGGER, 'WARNING', 'Redirect loop: <GET http://a.test/self> → <GET http://a.test/self> (not followed: <GET http://a.test/self> was already requested)'],
    ]);
    expect(crawler.stats.getAll()).toEqual({ 'redirect/loop': 1 });
  });

  it('a refresh back along the chain: a → b → a', () => {
    const { crawler, mw, spider } = setup();
    const a = new Request('http://a.test/a');
    const b = mw.processResponse(a, page(a, '0; url=/b'), spider) as Request;
    expect(() => mw.processResponse(b, page(b, '0; url=/a'), spider)).toThrow(new IgnoreRequest('redirect loop'));
    expect(crawler.lines(LOGGER).at(-1)?.[2]).toBe('Redirect loop: <GET http://a.test/a> → <GET http://a.test/b> → <GET http://a.test/a> (not followed: <GET http://a.test/a> was already requested)');
  });
});
