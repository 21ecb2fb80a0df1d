import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { HttpAuthMiddleware, basicAuthHeader } from '../../../src/middlewares/downloader/http-auth.js';
import { isUrlFromDomain } from '../../../src/http/url/domain-match.js';
import { Spider } from '../../../src/contracts/spider.js';
import { TestSpider, fakeCrawler } from '../../helpers/fake-crawler.js';

const LOGGER = 'seine.downloadermiddlewares.httpauth';
const AUTH = 'Basic dXNlcjpwYXNz'; // user:pass

class AuthSpider extends Spider {
  static override name = 'auth';
  httpUser = 'user';
  httpPass = 'pass';
}

class DomainSpider extends AuthSpider {
  static override name = 'domain';
  httpAuthDomain: string | null = 'example.com';
}

class EverywhereSpider extends AuthSpider {
  static override name = 'everywhere';
  httpAuthDomain = null;
}

function opened(spider: Spider) {
  const crawler = fakeCrawler({}, spider);
  const mw = HttpAuthMiddleware.fromCrawler(crawler);
  mw.openSpider(spider);
  return { crawler, mw };
}

function authOf(mw: HttpAuthMiddleware, spider: Spider, url: string, headers: Record<string, string> = {}): string | null {
  const request = new Request(url, { headers });
  mw.processRequest(request, spider);
  return request.headers.get('Authorization');
}

describe('HttpAuthMiddleware', () => {
  it('encodes credentials as ISO-8859-1 base64 (w3lib basic_auth_header)', () => {
    expect(basicAuthHeader('user', 'pass')).toBe(AUTH);
    expect(basicAuthHeader('jürgen', 'pw')).toBe(`Basic ${Buffer.from('jürgen:pw', 'latin1').toString('base64')}`);
  });

  it('sends credentials to httpAuthDomain and its subdomains only', () => {
    const spider = new DomainSpider();
    const { crawler, mw } = opened(spider);
    expect(['http://example.com/', 'https://www.example.com/x', 'http://example.com:8080/', 'http://other.com/', 'http://notexample.com/'].map((url) => authOf(mw, spider, url))).toEqual([
      AUTH, AUTH, AUTH, null, null,
    ]);
    expect(crawler.logs).toEqual([]);
  });

  it('sends credentials everywhere when httpAuthDomain is null', () => {
    const spider = new EverywhereSpider();
    const { mw } = opened(spider);
    expect(['http://a.test/', 'http://b.test/'].map((url) => authOf(mw, spider, url))).toEqual([AUTH, AUTH]);
  });

  it("without httpAuthDomain, warns and uses the first request's domain (Scrapy 2.8)", () => {
    const spider = new AuthSpider();
    const { crawler, mw } = opened(spider);
    expect(crawler.lines(LOGGER)).toEqual([
      [
        LOGGER,
        'WARNING',
        'Using HttpAuthMiddleware without httpAuthDomain can cause security problems if the spider makes requests to several different domains. ' +
          'httpAuthDomain will be set to the domain of the first request, please set it to the correct value explicitly (or to null to send the credentials to every domain).',
      ],
    ]);
    expect(['http://localhost:8080/a', 'http://localhost:9090/b', 'http://sub.localhost/', 'http://other.test/'].map((url) => authOf(mw, spider, url))).toEqual([
      AUTH, AUTH, AUTH, null,
    ]);
  });

  it('keeps an Authorization header the request already has', () => {
    const spider = new EverywhereSpider();
    const { mw } = opened(spider);
    expect(authOf(mw, spider, 'http://a.test/', { authorization: 'Bearer t' })).toBe('Bearer t');
  });

  it('does nothing for a spider without credentials', () => {
    const spider = new TestSpider();
    const { crawler, mw } = opened(spider);
    expect(authOf(mw, spider, 'http://a.test/')).toBeNull();
    expect(crawler.logs).toEqual([]);
  });

  it('takes credentials and domain from its options when built by hand', () => {
    const mw = new HttpAuthMiddleware({ user: 'user', password: 'pass', domain: 'a.test' });
    const spider = new TestSpider();
    expect([authOf(mw, spider, 'http://a.test/'), authOf(mw, spider, 'http://b.test/')]).toEqual([AUTH, null]);
  });
});

describe('isUrlFromDomain', () => {
  it('matches the host or a subdomain, with or without port; a domain with a port matches that port', () => {
    expect(isUrlFromDomain('http://Example.COM:81/', 'example.com')).toBe(true);
    expect(isUrlFromDomain('http://example.com:81/', 'example.com:81')).toBe(true);
    expect(isUrlFromDomain('http://example.com:82/', 'example.com:81')).toBe(false);
    expect(isUrlFromDomain('not a url', 'example.com')).toBe(false);
  });
});
