import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { DummyPolicy } from '../../../src/middlewares/downloader/http-cache-dummy-policy.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

function response(status: number, headers: Record<string, string> = {}): Response {
  const request = new Request('http://example.com/');
  return new Response({ url: request.url, status, headers, request });
}

describe('DummyPolicy', () => {
  it("caches every scheme but the default ignored one, 'file'", () => {
    const policy = new DummyPolicy();
    expect(['http://a.test/', 'https://a.test/', 'data:,x', 'file:///tmp/a.html', 'FILE:///tmp/a.html'].map((url) => policy.shouldCacheRequest(new Request(url))))
      .toEqual([true, true, true, false, false]);
  });

  it('stores every status, whatever the headers say, but the ignored codes', () => {
    const policy = DummyPolicy.fromCrawler(fakeCrawler({ HTTPCACHE_IGNORE_HTTP_CODES: '404,500' }));
    expect([200, 304, 404, 500, 503].map((status) => policy.shouldCacheResponse(response(status, { 'Cache-Control': 'no-store' })))).toEqual([true, true, false, false, true]);
  });

  it('uses any cached response as it is: always fresh, always valid, and adds no validators', () => {
    const policy = new DummyPolicy();
    const request = new Request('http://example.com/', { headers: { 'Cache-Control': 'no-cache' } });
    const stale = response(200, { Date: 'Thu, 01 Jan 1998 00:00:00 GMT', 'Cache-Control': 'max-age=0, must-revalidate', ETag: '"x"' });
    expect(policy.isCachedResponseFresh(stale, request)).toBe(true);
    expect(policy.isCachedResponseValid(stale, response(200), request)).toBe(true);
    expect(request.headers.has('If-None-Match')).toBe(false);
  });

  it('reads HTTPCACHE_IGNORE_SCHEMES', () => {
    const policy = DummyPolicy.fromCrawler(fakeCrawler({ HTTPCACHE_IGNORE_SCHEMES: ['data'] }));
    expect([policy.shouldCacheRequest(new Request('data:,x')), policy.shouldCacheRequest(new Request('file:///tmp/a.html'))]).toEqual([false, true]);
  });
});
