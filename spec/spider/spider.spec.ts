import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { LogBus, type LogEvent } from '../../src/log/index.js';
import type { Crawler } from '../../src/core/crawler.js';
import { Request, isRequest } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { Spider, extendsSpider, isSpider, isSpiderClass, spiderClassName, spiderName } from '../../src/spider/spider.js';
import { SpiderDefinitionError } from '../../src/spider/spider-errors.js';

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
