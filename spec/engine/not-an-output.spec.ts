import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Spider, type Response } from '../../src/index.js';
import { quotesSite, runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

/** A callback that yields a number, a string or an array: Scrapy logs "Spider must return request, item, or None" and goes on. */

let site: TestSite;
beforeAll(async () => {
  site = await startSite(quotesSite(1));
});
afterAll(async () => site.close());

const scraperErrors = (logs: Array<{ logger: string; level: string; message: string }>): string[] =>
  logs.filter((l) => l.logger === 'seine.core.scraper' && l.level === 'ERROR').map((l) => l.message);

describe('outputs that are neither a Request nor an item', () => {
  it('are reported one line each, never reach the feed, and the crawl goes on', async () => {
    const url = (): string => site.url('/page/1/');
    class Sloppy extends Spider {
      static override name = 'sloppy';
      override startUrls = [url()];
      override *parse(_response: Response): Generator<unknown> {
        yield 42;
        yield 'text';
        yield ['a', 'b'];
        yield { kept: true };
        yield null; // nothing, as in Scrapy
      }
    }
    const result = await runCrawl(Sloppy as never);
    expect(result.reason).toBe('finished');
    expect(result.items).toEqual([{ kept: true }]);
    expect(scraperErrors(result.logs)).toEqual(
      ['number', 'string', 'array'].map((kind) => `Spider must return request, item, or null, got '${kind}' in <GET ${url()}>: yield an object ({ value: … }) or a Request`),
    );
    expect(result.stats['item_scraped_count']).toBe(1);
  });

  it('a callback that returns a single number is reported the same way, not as a spider exception', async () => {
    class ReturnsNumber extends Spider {
      static override name = 'number';
      override startUrls = [site.url('/page/1/')];
      override parse(): never {
        return 7 as never; // what a JavaScript spider (or an `any`) can return
      }
    }
    const result = await runCrawl(ReturnsNumber as never);
    expect(result.reason).toBe('finished');
    expect(result.items).toEqual([]);
    expect(scraperErrors(result.logs)).toEqual([`Spider must return request, item, or null, got 'number' in <GET ${site.url('/page/1/')}>: yield an object ({ value: … }) or a Request`]);
    expect(Object.keys(result.stats).filter((key) => key.startsWith('spider_exceptions'))).toEqual([]);
  });

  it('start() yielding a string is reported and the crawl goes on', async () => {
    class BadStart extends Spider {
      static override name = 'badstart';
      override async *start() {
        yield 'http://not-a-request' as never; // a URL where a Request was meant, in a JavaScript spider
        yield { fromStart: 1 };
      }
    }
    const result = await runCrawl(BadStart as never);
    expect(result.reason).toBe('finished');
    expect(result.items).toEqual([{ fromStart: 1 }]);
    expect(scraperErrors(result.logs)).toEqual(["Spider must return request, item, or null, got 'string' in start(): yield an object ({ value: … }) or a Request"]);
  });
});
