import { describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../../src/contracts/control-flow.js';
import { SeineError } from '../../../src/errors/seine-error.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { DownloaderStats } from '../../../src/middlewares/downloader/downloader-stats.js';
import { requestSize, responseSize } from '../../../src/middlewares/downloader/http-size.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

// Sizes are what Scrapy 2.8 computes for the same requests and responses (request_httprepr, get_header_size, get_status_size).
describe('http sizes', () => {
  it('measures a request as its HTTP/1.1 message', () => {
    const request = new Request('http://Example.com:8080/a/b?x=1&y=2#frag', { headers: { Accept: 'text/html', 'Accept-Language': 'en', 'User-Agent': 'seine/0.1' } });
    expect(requestSize(request)).toBe(111);
    expect(requestSize(new Request('http://example.com', { method: 'POST', body: 'hello wörld' }))).toBe(50);
    expect(requestSize(new Request('http://example.com/?', { headers: { 'X-Multi': ['a', 'bb'] } }))).toBe(62);
  });

  it('measures a response as body, headers and status line', () => {
    const response = new Response({ url: 'http://example.com', headers: { 'Content-Type': 'text/html', 'Set-Cookie': ['a=1', 'b=2'] }, body: '<html></html>' });
    expect(responseSize(response)).toBe(89);
    expect(responseSize(new Response({ url: 'http://example.com', status: 429, body: 'x' }))).toBe(18);
  });
});

describe('DownloaderStats', () => {
  it("counts requests, responses and bytes under Scrapy's keys", () => {
    const crawler = fakeCrawler();
    const mw = DownloaderStats.fromCrawler(crawler);
    const get = new Request('http://example.com', { method: 'POST', body: 'hello wörld' });
    const post = new Request('http://example.com/?', { headers: { 'X-Multi': ['a', 'bb'] } });
    mw.processRequest(get);
    mw.processRequest(post);
    const ok = new Response({ url: 'http://example.com', headers: { 'Content-Type': 'text/html', 'Set-Cookie': ['a=1', 'b=2'] }, body: '<html></html>' });
    expect(mw.processResponse(get, ok)).toBe(ok);
    mw.processResponse(post, new Response({ url: 'http://example.com', status: 429, body: 'x' }));
    expect(crawler.stats.getAll()).toEqual({
      'downloader/request_count': 2,
      'downloader/request_method_count/POST': 1,
      'downloader/request_method_count/GET': 1,
      'downloader/request_bytes': 112,
      'downloader/response_count': 2,
      'downloader/response_status_count/200': 1,
      'downloader/response_status_count/429': 1,
      'downloader/response_bytes': 107,
    });
  });

  it('counts download errors by name', () => {
    const crawler = fakeCrawler();
    const mw = DownloaderStats.fromCrawler(crawler);
    class DownloadTimeoutError extends SeineError {}
    expect(mw.processException(new Request('http://a.test/'), new DownloadTimeoutError('SEINE_DOWNLOAD_TIMEOUT', 'timed out'))).toBeUndefined();
    mw.processException(new Request('http://a.test/'), new DownloadTimeoutError('SEINE_DOWNLOAD_TIMEOUT', 'timed out'));
    mw.processException(new Request('http://a.test/'), new TypeError('x'));
    expect(crawler.stats.getAll()).toEqual({
      'downloader/exception_count': 3,
      'downloader/exception_type_count/DownloadTimeoutError': 2,
      'downloader/exception_type_count/TypeError': 1,
    });
  });

  it('is switched off by DOWNLOADER_STATS=false', () => {
    expect(() => DownloaderStats.fromCrawler(fakeCrawler({ DOWNLOADER_STATS: false }))).toThrow(NotConfigured);
  });

  it('counts nothing when built without stats', () => {
    expect(() => new DownloaderStats().processRequest(new Request('http://a.test/'))).not.toThrow();
  });
});
