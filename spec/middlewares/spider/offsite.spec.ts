import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { LogBus } from '../../../src/log/index.js';
import { OffsiteMiddleware, isLocalSchemeFromRemote } from '../../../src/middlewares/spider/offsite.js';
import { hostnameOf } from '../../../src/http/url/domain-match.js';
import { Spider } from '../../../src/contracts/spider.js';
import { MemoryStatsCollector } from '../../../src/stats/memory-stats-collector.js';
import { TestSpider, fakeCrawler, recordLogs } from '../../helpers/fake-crawler.js';
import { collect, outputs, responseFor } from '../../helpers/spider-output.js';

function spiderFor(allowedDomains?: (string | null)[]): Spider {
  const spider = new TestSpider();
  if (allowedDomains !== undefined) spider.allowedDomains = allowedDomains as string[];
  return spider;
}

async function urlsThrough(middleware: OffsiteMiddleware, spider: Spider, urls: string[]): Promise<string[]> {
  const result = await collect(middleware.processSpiderOutput(responseFor('http://example.com/'), outputs(...urls.map((url) => new Request(url))), spider));
  return result.map((r) => (r as Request).url);
}

describe('OffsiteMiddleware', () => {
  it('keeps requests to allowed domains and their subdomains and drops the rest', async () => {
    const spider = spiderFor(['example.com', 'scrapy.test']);
    const middleware = new OffsiteMiddleware();
    middleware.openSpider(spider);
    const kept = await urlsThrough(middleware, spider, [
      'http://example.com/1',
      'https://www.example.com/2',
      'http://a.b.example.com:8080/3',
      'http://badexample.com/4',
      'http://example.com.evil.org/5',
      'http://scrapy.test/6',
      'http://example.org/7',
    ]);
    expect(kept).toEqual(['http://example.com/1', 'https://www.example.com/2', 'http://a.b.example.com:8080/3', 'http://scrapy.test/6']);
  });

  it('logs the first filtered request of each domain at DEBUG and counts domains and requests', async () => {
    const crawler = fakeCrawler({}, spiderFor(['example.com']));
    const middleware = OffsiteMiddleware.fromCrawler(crawler);
    middleware.openSpider(crawler.spider);
    await urlsThrough(middleware, crawler.spider, ['http://example.org/x', 'http://example.org/y', 'http://other.net/', 'http://example.com/ok']);
    expect(crawler.textLines()).toEqual([
      "DEBUG [seine.spidermiddlewares.offsite] Filtered offsite request to 'example.org': <GET http://example.org/x>",
      "DEBUG [seine.spidermiddlewares.offsite] Filtered offsite request to 'other.net': <GET http://other.net/>",
    ]);
    expect(crawler.stats.getAll()).toEqual({ 'offsite/domains': 2, 'offsite/filtered': 3 });
  });

  it('lets dontFilter requests and items through', async () => {
    const spider = spiderFor(['example.com']);
    const middleware = new OffsiteMiddleware();
    middleware.openSpider(spider);
    const item = { title: 'x' };
    const request = new Request('http://example.org/', { dontFilter: true });
    const result = await collect(middleware.processSpiderOutput(responseFor('http://example.com/'), outputs(item, request), spider));
    expect(result).toEqual([item, request]);
  });

  it('allows everything when the spider has no allowedDomains or an empty list', async () => {
    for (const domains of [undefined, []]) {
      const spider = spiderFor(domains);
      // data: from a remote page passes only with ALLOW_LOCAL_SCHEMES_FROM_REMOTE (the default drops it, below).
      const middleware = new OffsiteMiddleware({ allowLocalSchemesFromRemote: true });
      middleware.openSpider(spider);
      expect(await urlsThrough(middleware, spider, ['http://anything.org/', 'data:text/plain,hi'])).toEqual(['http://anything.org/', 'data:text/plain,hi']);
    }
  });

  it('warns about URL and port entries, ignores them and null entries', async () => {
    const bus = new LogBus();
    const log = recordLogs(bus);
    const spider = spiderFor(['http://example.com', 'https://example.net/x', 'example.org:8080', null, 'scrapy.test']);
    const middleware = new OffsiteMiddleware({ logBus: bus });
    middleware.openSpider(spider);
    expect(log.textLines()).toEqual([
      'WARNING [seine.spidermiddlewares.offsite] allowedDomains accepts only domains, not URLs. Ignoring URL entry http://example.com in allowedDomains.',
      'WARNING [seine.spidermiddlewares.offsite] allowedDomains accepts only domains, not URLs. Ignoring URL entry https://example.net/x in allowedDomains.',
      'WARNING [seine.spidermiddlewares.offsite] allowedDomains accepts only domains without ports. Ignoring entry example.org:8080 in allowedDomains.',
    ]);
    expect(await urlsThrough(middleware, spider, ['http://example.com/', 'http://example.org:8080/', 'http://scrapy.test/'])).toEqual(['http://scrapy.test/']);
  });

  it('filters everything when every entry is rejected, as Scrapy does', async () => {
    const spider = spiderFor(['http://example.com']);
    const middleware = new OffsiteMiddleware();
    middleware.openSpider(spider);
    expect(await urlsThrough(middleware, spider, ['http://example.com/'])).toEqual([]);
  });

  it('counts requests without a host but does not log them', async () => {
    const bus = new LogBus();
    const log = recordLogs(bus);
    const stats = new MemoryStatsCollector();
    const spider = spiderFor(['example.com']);
    // Scrapy's case; with the local-scheme check off, so that the data: URL reaches the domain check.
    const middleware = new OffsiteMiddleware({ stats, logBus: bus, allowLocalSchemesFromRemote: true });
    middleware.openSpider(spider);
    expect(await urlsThrough(middleware, spider, ['data:text/plain,hi', 'about:blank'])).toEqual([]);
    expect(log.textLines()).toEqual([]);
    expect(stats.getAll()).toEqual({ 'offsite/filtered': 2 });
  });

  it('compares hosts case-insensitively and allows non-ASCII domains by their punycode', async () => {
    const spider = spiderFor(['Example.COM', 'bücher.de']);
    const middleware = new OffsiteMiddleware();
    middleware.openSpider(spider);
    const requests = ['http://WWW.EXAMPLE.com/', 'http://xn--bcher-kva.de/', 'http://bücher.de/', 'http://example.org/'].map((url) => new Request(url));
    const kept = await collect(middleware.processSpiderOutput(responseFor('http://example.com/'), outputs(...requests), spider));
    expect(kept).toEqual(requests.slice(0, 3));
  });

  it('takes allowedDomains from its options over the spider', async () => {
    const spider = spiderFor(['example.com']);
    const middleware = new OffsiteMiddleware({ allowedDomains: ['example.org'] });
    middleware.openSpider(spider);
    expect(await urlsThrough(middleware, spider, ['http://example.com/', 'http://example.org/'])).toEqual(['http://example.org/']);
  });

  it('reads allowedDomains on first use when openSpider was not called', async () => {
    const spider = spiderFor(['example.com']);
    expect(await urlsThrough(new OffsiteMiddleware(), spider, ['http://example.com/', 'http://example.org/'])).toEqual(['http://example.com/']);
  });
});

describe('OffsiteMiddleware: local schemes from remote pages (docs/security.md, "Local schemes")', () => {
  async function through(middleware: OffsiteMiddleware, spider: Spider, pageUrl: string, requests: Request[]): Promise<string[]> {
    const result = await collect(middleware.processSpiderOutput(responseFor(pageUrl), outputs(...requests), spider));
    return result.map((r) => (r as Request).url);
  }

  it('drops file: and data: requests from an http(s) page, dontFilter or not, with one WARNING per scheme, a stat and a request_dropped event', async () => {
    const crawler = fakeCrawler({});
    const dropped: string[] = [];
    crawler.events$.subscribe((event) => {
      if (event.type === 'request_dropped') dropped.push(`${event.reason} ${event.request.url}`);
    });
    const middleware = OffsiteMiddleware.fromCrawler(crawler);
    middleware.openSpider(crawler.spider);
    const requests = [
      new Request('file:///etc/passwd'),
      new Request('FILE:///etc/shadow', { dontFilter: true }),
      new Request('data:text/plain,hi'),
      new Request('http://example.org/ok'),
    ];
    expect(await through(middleware, crawler.spider, 'https://example.com/page', requests)).toEqual(['http://example.org/ok']);
    expect(crawler.textLines()).toEqual([
      "WARNING [seine.spidermiddlewares.offsite] Dropped a file: request from the remote page <https://example.com/page>: 'file:///etc/passwd' (a remote page cannot make seine read local files; set ALLOW_LOCAL_SCHEMES_FROM_REMOTE=true to allow it; further file: requests from remote pages are counted in offsite/local_scheme)",
      "WARNING [seine.spidermiddlewares.offsite] Dropped a data: request from the remote page <https://example.com/page>: 'data:text/plain,hi' (a remote page cannot make seine read local files; set ALLOW_LOCAL_SCHEMES_FROM_REMOTE=true to allow it; further data: requests from remote pages are counted in offsite/local_scheme)",
    ]);
    expect(crawler.stats.getAll()).toEqual({ 'offsite/local_scheme': 3 });
    expect(dropped).toEqual(['offsite file:///etc/passwd', 'offsite file:///etc/shadow', 'offsite data:text/plain,hi']);
  });

  it('lets a local page (file:, data:) request local URLs', async () => {
    const spider = spiderFor();
    const middleware = new OffsiteMiddleware();
    middleware.openSpider(spider);
    const urls = ['file:///tmp/site/b.html', 'data:text/plain,x'];
    expect(await through(middleware, spider, 'file:///tmp/site/a.html', urls.map((url) => new Request(url)))).toEqual(urls);
    expect(await through(middleware, spider, 'data:text/html,<a>', urls.map((url) => new Request(url)))).toEqual(urls);
  });

  it('lets them through with ALLOW_LOCAL_SCHEMES_FROM_REMOTE', async () => {
    const crawler = fakeCrawler({ ALLOW_LOCAL_SCHEMES_FROM_REMOTE: true });
    const middleware = OffsiteMiddleware.fromCrawler(crawler);
    middleware.openSpider(crawler.spider);
    expect(await through(middleware, crawler.spider, 'http://example.com/', [new Request('file:///etc/hostname')])).toEqual(['file:///etc/hostname']);
    expect(crawler.textLines()).toEqual([]);
  });

  it('tells a local scheme from a remote page: isLocalSchemeFromRemote', () => {
    const from = (page: string, url: string) => isLocalSchemeFromRemote(new Request(url), responseFor(page));
    expect([
      from('http://a.test/', 'file:///x'),
      from('https://a.test/', 'data:,x'),
      from('http://a.test/', 'http://b.test/'),
      from('file:///a', 'file:///b'),
      from('ftp://a.test/', 'file:///b'),
    ]).toEqual([true, true, false, false, false]);
    expect(isLocalSchemeFromRemote(new Request('file:///x'), null)).toBe(false);
  });
});

describe('hostnameOf', () => {
  it('gives the host as Python urlparse().hostname: lower case, no port, IPv6 without brackets', () => {
    expect(hostnameOf('http://User:pw@WWW.Example.com:8080/a')).toBe('www.example.com');
    expect(hostnameOf('http://[::1]:8000/')).toBe('::1');
    expect(hostnameOf('javascript:void(0)')).toBeNull();
    expect(hostnameOf('data:text/plain,hi')).toBeNull();
    expect(hostnameOf('not a url')).toBeNull();
  });

  it('gives the WHATWG parser\'s hostname for every URL its fast path takes, and for those it leaves to the parser', () => {
    const urls = [
      'http://example.com/', 'https://www.example.com:8443/a?b=1#c', 'http://127.0.0.1:8000/page/1/', 'http://1.2.3/', 'http://0x7f.1/',
      'http://192.168.0.1.5/', 'http://256.1.1.1/', 'http://a.b.c.d.1/', 'http://xn--nxasmq6b.com/', 'http://EXAMPLE.com/',
      'http://exa-mple.co.uk:65535/', 'http://example.com:65536/', 'http://[::1]:8080/', 'http://host/#!frag', 'http://a.b/?q=1&r=%20',
    ];
    for (const url of urls) {
      let expected: string | null;
      try {
        expected = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1') || null;
      } catch {
        expected = null;
      }
      expect([url, hostnameOf(url)]).toEqual([url, expected]);
    }
  });
});
