import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { LogBus, type LogEvent } from '../../src/log/index.js';
import type { Crawler } from '../../src/contracts/crawler.js';
import { Request, isRequest } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { Spider, extendsSpider, isSpider, isSpiderClass, spiderClassName, spiderName } from '../../src/contracts/spider.js';
import { SPIDER_CLASS_NAME } from '../../src/contracts/spider-brand.js';
import { SpiderDefinitionError } from '../../src/contracts/spider-errors.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';
import { runCrawl, startSite, type CrawlResult, type TestSite } from '../helpers/site-server.js';

class QuotesSpider extends Spider {
  static override name = 'quotes';
  static override customSettings = { DOWNLOAD_DELAY: 1 };
  override startUrls = ['http://127.0.0.1:8000/page/1/', 'http://127.0.0.1:8000/page/2/'];
}

/** A base class: extends Spider, no name of its own. */
class BaseSpider extends Spider {}
class FromBase extends BaseSpider {
  static override name = 'from-base';
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('spider classes', () => {
  it('reads a class’s own static name', () => {
    expect(spiderName(QuotesSpider)).toBe('quotes');
    expect(spiderName(FromBase)).toBe('from-base');
  });

  it('takes a class without its own static name for a base class', () => {
    expect(spiderName(BaseSpider)).toBeNull();
    expect(spiderName(Spider)).toBeNull();
    expect(isSpiderClass(BaseSpider)).toBe(false);
    expect(isSpiderClass(Spider)).toBe(false);
    expect(isSpiderClass(QuotesSpider)).toBe(true);
    expect(isSpiderClass(FromBase)).toBe(true);
  });

  it('does not inherit a name: a subclass of a named spider is a base class until it names itself', () => {
    class MoreQuotes extends QuotesSpider {}
    expect(spiderName(MoreQuotes)).toBeNull();
    expect(isSpiderClass(MoreQuotes)).toBe(false);
  });

  it('refuses values that are not spider classes', () => {
    class Named {
      static name = 'named';
    }
    for (const value of [Named, null, undefined, 'quotes', {}, () => 1, new QuotesSpider()]) {
      expect(isSpiderClass(value)).toBe(false);
    }
  });

  it('recognises spider classes and instances by brand, as another loaded copy of seine makes them', () => {
    // A class from a second copy of seine: its prototype carries the brand, but it is no instance of this Spider.
    function Foreign(): void {}
    Object.defineProperty(Foreign.prototype, Symbol.for('seine.Spider'), { value: true });
    Object.defineProperty(Foreign, 'name', { value: 'foreign', enumerable: true });
    expect(Foreign.prototype instanceof Spider).toBe(false);
    expect(extendsSpider(Foreign)).toBe(true);
    expect(isSpiderClass(Foreign)).toBe(true);
    expect(isSpider(new QuotesSpider())).toBe(true);
    expect(isSpider({ name: 'quotes' })).toBe(false);
  });

  it('keeps the class identifier for messages although static name replaces it', () => {
    expect(QuotesSpider.name).toBe('quotes');
    expect(spiderClassName(QuotesSpider)).toBe('QuotesSpider');
    expect(spiderClassName(BaseSpider)).toBe('BaseSpider');
  });

  it('as a bundler writes a class (`var Name = class extends …`), names it Spider, or by its SPIDER_CLASS_NAME', () => {
    const Bundled = (() => class extends Spider {
      static override name = 'bundled';
    })();
    expect(spiderClassName(Bundled)).toBe('Spider');
    const Named = (() => class extends Spider {
      static override name = 'named';
      static readonly [SPIDER_CLASS_NAME] = 'NamedSpider';
    })();
    expect(spiderClassName(Named)).toBe('NamedSpider');
    expect(String(new Named())).toBe("<NamedSpider 'named'>");
  });

  it('keeps customSettings on the class, readable before construction', () => {
    expect(QuotesSpider.customSettings).toEqual({ DOWNLOAD_DELAY: 1 });
  });
});

describe('Spider instances', () => {
  it('has its class’s name, and prints as Scrapy does', () => {
    const spider = new QuotesSpider();
    expect(spider.name).toBe('quotes');
    expect(String(spider)).toBe("<QuotesSpider 'quotes'>");
    expect(inspect(spider)).toBe("<QuotesSpider 'quotes'>");
    expect(new BaseSpider().name).toBe('BaseSpider');
  });

  it('starts with one GET per startUrls entry, in order, not duplicate-filtered, parsed by parse', async () => {
    const requests = await collect(new QuotesSpider().start());
    expect(requests.map(String)).toEqual(['<GET http://127.0.0.1:8000/page/1/>', '<GET http://127.0.0.1:8000/page/2/>']);
    for (const request of requests) {
      expect(isRequest(request)).toBe(true);
      const r = request as Request;
      expect(r.dontFilter).toBe(true);
      expect(r.callback).toBeNull(); // null means the spider's parse, as in Scrapy
      expect(r.priority).toBe(0);
    }
  });

  it('starts with nothing when startUrls is empty', async () => {
    expect(await collect(new FromBase().start())).toEqual([]);
  });

  it('points out startUrl written for startUrls, in Scrapy’s words', async () => {
    class Typo extends Spider {
      static override name = 'typo';
      startUrl = 'http://127.0.0.1:8000/';
    }
    await expect(collect(new Typo().start())).rejects.toThrow(
      new SpiderDefinitionError(
        "Crawling could not start: 'startUrls' not found or empty (but found 'startUrl' attribute instead, did you miss an 's'?)",
      ),
    );
  });

  it("points out Scrapy's start_urls and start_requests() when the default start() has no startUrls", async () => {
    class Ported extends Spider {
      static override name = 'ported';
      start_urls = ['http://127.0.0.1:8000/'];
    }
    class PortedStart extends Spider {
      static override name = 'ported-start';
      *start_requests() {
        yield new Request('http://127.0.0.1:8000/');
      }
    }
    await expect(collect(new Ported().start())).rejects.toThrow(
      new SpiderDefinitionError("Crawling could not start: 'startUrls' not found or empty (but found Scrapy's 'start_urls' attribute instead: seine spells it startUrls)"),
    );
    await expect(collect(new PortedStart().start())).rejects.toThrow(
      new SpiderDefinitionError("Crawling could not start: 'startUrls' not found or empty (and seine never calls start_requests(): rename it start(), an async generator (async *start() { … }))"),
    );
  });

  it("has the crawler's settings once bound, and says when they are read too early", () => {
    const spider = new QuotesSpider();
    expect(() => spider.settings).toThrow(
      new SpiderDefinitionError("QuotesSpider.settings is not set yet: the crawler gives the spider its settings after constructing it; read them in start() or a callback, not in the constructor"),
    );
    const crawler = fakeCrawler({ CONCURRENT_REQUESTS: 7 }, spider);
    expect(spider.settings).toBe(crawler.settings);
    expect(spider.settings.getInt('CONCURRENT_REQUESTS')).toBe(7);
  });

  it('fails in parse when the spider defines none', () => {
    const response = new Response({ url: 'http://127.0.0.1:8000/page/1/' });
    expect(() => new QuotesSpider().parse(response)).toThrow(
      new SpiderDefinitionError(
        'QuotesSpider.parse callback is not defined: add a parse(response) method, or give the Request for http://127.0.0.1:8000/page/1/ a callback',
      ),
    );
  });

  it('logs under its name, into its crawler’s log bus', () => {
    const bus = new LogBus({ now: () => new Date(0) });
    const events: LogEvent[] = [];
    bus.events$.subscribe((event) => events.push(event));
    const spider = new QuotesSpider();
    expect(spider.logger.name).toBe('quotes');
    spider.crawler = { logBus: bus } as unknown as Crawler;
    spider.logger.info('Parsed page 1');
    expect(events).toEqual([{ time: new Date(0), logger: 'quotes', level: 'INFO', message: 'Parsed page 1' }]);
  });
});

/** `LEVEL [logger] message` of the lines a crawl logged about URLs it skipped. */
function skipLines(result: CrawlResult): string[] {
  return result.logs.filter((l) => /^(Skipping start URL|Ignoring link) /.test(l.message)).map((l) => `${l.level} [${l.logger}] ${l.message}`);
}

describe('invalid URLs: one costs only itself', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startSite({
      '/': '<html><body><a href="/a">a</a><a href="/b">b</a></body></html>',
      '/about': '<html><body>about</body></html>',
      '/contact': '<html><body>contact</body></html>',
      '/a': '<html><body>a</body></html>',
      '/b': '<html><body>b</body></html>',
    });
  });
  afterAll(async () => site.close());
  beforeEach(() => site.reset());

  it('skips a start URL no Request can be made from with an ERROR line, and requests the next ones', async () => {
    const hostPort = site.url('/').replace('http://', ''); // 127.0.0.1:<port>/
    const [about, contact] = [site.url('/about'), site.url('/contact')];
    class Starts extends Spider {
      static override name = 'starts';
      override startUrls = [hostPort, about, 'http://exa mple.com/', contact];
      override parse(response: Response) {
        return { page: new URL(response.url).pathname };
      }
    }
    const result = await runCrawl(Starts);
    expect([...site.hits].sort()).toEqual(['/about', '/contact']);
    expect(result.items.map((i) => i['page']).sort()).toEqual(['/about', '/contact']);
    expect(skipLines(result)).toEqual([
      `ERROR [starts] Skipping start URL '${hostPort}': Missing scheme in request url: ${hostPort} (did you mean 'http://${hostPort}'?)`,
      "ERROR [starts] Skipping start URL 'http://exa mple.com/': Malformed request url: http://exa mple.com/ (not a URL by the URL standard: check the host and port)",
    ]);
    expect(result.stats['spider/invalid_url']).toBe(2);
    expect(result.stats['log_count/ERROR']).toBe(2);
    expect(result.stats['spider_exceptions/InvalidUrlError']).toBeUndefined();
    expect(result.reason).toBe('finished');
  });

  it('follows the good links of response.followAll() and logs each bad one at WARNING with the page', async () => {
    const home = site.url('/');
    class Follower extends Spider {
      static override name = 'follower';
      override startUrls = [home];
      override *parse(response: Response) {
        if (response.url !== home) return;
        yield* response.followAll(['/a', 'http://exa mple.com/', 'mailto:someone@example.com', '/b'], this.page);
        yield { after: 'followAll' }; // what the callback does next is not lost either
      }
      page(response: Response) {
        return { page: new URL(response.url).pathname };
      }
    }
    const result = await runCrawl(Follower);
    expect([...site.hits].sort()).toEqual(['/', '/a', '/b']);
    expect(result.items).toEqual(expect.arrayContaining([{ after: 'followAll' }, { page: '/a' }, { page: '/b' }]));
    expect(skipLines(result)).toEqual([
      `WARNING [follower] Ignoring link 'http://exa mple.com/' on <200 ${home}>: Malformed request url: http://exa mple.com/ (not a URL by the URL standard: check the host and port)`,
      `WARNING [follower] Ignoring link 'mailto:someone@example.com' on <200 ${home}>: Missing scheme in request url: mailto:someone@example.com ('mailto:' URLs have nothing to download: leave such links out)`,
    ]);
    expect(result.stats['spider/invalid_url']).toBe(2);
    expect(result.stats['log_count/WARNING']).toBe(2);
    expect(result.lines.some((line) => line.startsWith('Spider error processing'))).toBe(false);
  });
});

describe('start() and invalid start URLs', () => {
  it('skips entries that are not strings, counting them, and refuses a string for the list', async () => {
    const bus = new LogBus({ now: () => new Date(0) });
    const events: LogEvent[] = [];
    bus.events$.subscribe((event) => events.push(event));
    const counted: string[] = [];
    class Mixed extends Spider {
      static override name = 'mixed';
      override startUrls = ['http://127.0.0.1:8000/1', 42 as never, 'http://127.0.0.1:8000/2'];
    }
    const spider = new Mixed();
    spider.crawler = { logBus: bus, stats: { inc: (key: string) => counted.push(key) } } as unknown as Crawler;
    expect((await collect(spider.start())).map(String)).toEqual(['<GET http://127.0.0.1:8000/1>', '<GET http://127.0.0.1:8000/2>']);
    expect(events.map((e) => [e.level, e.message])).toEqual([['ERROR', "Skipping start URL 42: not a string but a number (list start URLs as strings, such as 'https://example.com/')"]]);
    expect(counted).toEqual(['spider/invalid_url']);

    class OneString extends Spider {
      static override name = 'one-string';
      override startUrls = 'http://127.0.0.1:8000/' as never;
    }
    await expect(collect(new OneString().start())).rejects.toThrow(
      new SpiderDefinitionError("Crawling could not start: 'startUrls' is a string, not a list of URLs: write startUrls = ['http://127.0.0.1:8000/']"),
    );
  });
});
