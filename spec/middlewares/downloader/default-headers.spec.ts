import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { DefaultHeadersMiddleware } from '../../../src/middlewares/downloader/default-headers.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

describe('DefaultHeadersMiddleware', () => {
  it("sets DEFAULT_REQUEST_HEADERS (Scrapy's Accept and Accept-Language by default)", () => {
    const mw = DefaultHeadersMiddleware.fromCrawler(fakeCrawler());
    const request = new Request('http://a.test/');
    expect(mw.processRequest(request)).toBeUndefined();
    expect([...request.headers]).toEqual([
      ['Accept', ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']],
      ['Accept-Language', ['en']],
    ]);
  });

  it('keeps headers the request already has, whatever their case', () => {
    const mw = DefaultHeadersMiddleware.fromCrawler(fakeCrawler({ DEFAULT_REQUEST_HEADERS: { Accept: 'x/y', 'X-Added': '1' } }));
    const request = new Request('http://a.test/', { headers: { accept: 'application/json' } });
    mw.processRequest(request);
    expect([...request.headers]).toEqual([['accept', ['application/json']], ['X-Added', ['1']]]);
  });

  it('skips null values and sets lists as several values', () => {
    const mw = new DefaultHeadersMiddleware({ headers: { Skipped: null, 'X-Many': ['a', 'b'] } });
    const request = new Request('http://a.test/');
    mw.processRequest(request);
    expect([...request.headers]).toEqual([['X-Many', ['a', 'b']]]);
  });

  it('reads DEFAULT_REQUEST_HEADERS given as a JSON string (from -s)', () => {
    const mw = DefaultHeadersMiddleware.fromCrawler(fakeCrawler({ DEFAULT_REQUEST_HEADERS: '{"X-A": "1"}' }));
    expect(mw.headers).toEqual([['X-A', '1']]);
  });

  it('sets nothing when built without headers', () => {
    const request = new Request('http://a.test/');
    new DefaultHeadersMiddleware().processRequest(request);
    expect(request.headers.size).toBe(0);
  });
});
