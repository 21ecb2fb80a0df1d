import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { of } from 'rxjs';
import {
  DropItem, Request, Spider,
  type DownloaderMiddleware, type Item, type ItemPipeline, type Response, type SpiderMiddleware, type SpiderOutput,
} from '../../src/index.js';
import { linksPage, runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

/** The spider side of the engine, end to end: offsite, dedupe, scheduler order, depth, URL length, referer, http-error, callbacks, pipelines, middlewares, arguments. */

let site: TestSite;
beforeAll(async () => {
  site = await startSite({
    '/': linksPage(['/a', '/b']),
    '/a': linksPage(['/a1', '/a2']),
    '/b': linksPage(['/b1', '/b2']),
    '/a1': linksPage([]), '/a2': linksPage([]), '/b1': linksPage([]), '/b2': linksPage([]),
    '/offsite': linksPage(['http://elsewhere.invalid/x', '/a1']),
    '/long': linksPage([`/${'x'.repeat(80)}`, '/a1']),
    '/p': '<html><body>p</body></html>',
    '/echo': (req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ referer: req.headers['referer'] ?? null })),
  });
});
afterAll(async () => site.close());

/** Follows every link; one item per page. */
function follower(start: string, extra: Record<string, unknown> = {}) {
  return class Follower extends Spider {
    static override name = 'follower';
    override startUrls = [site.url(start)];
    constructor(args?: Readonly<Record<string, unknown>>) {
      super(args);
      Object.assign(this, extra);
    }
    override *parse(response: Response) {
      yield { path: new URL(response.url).pathname };
      for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
    }
  };
}

describe('offsite, dedupe, depth, URL length', () => {
  it('filters requests outside allowedDomains, with a log line and stats', async () => {
    site.reset();
    const result = await runCrawl(follower('/offsite', { allowedDomains: ['127.0.0.1'] }));
    expect(result.items).toEqual([{ path: '/offsite' }, { path: '/a1' }]);
    expect(result.lines).toContain(`Filtered offsite request to 'elsewhere.invalid': <GET http://elsewhere.invalid/x>`);
    expect(result.stats['offsite/filtered']).toBe(1);
    expect(result.stats['offsite/domains']).toBe(1);
  });

  it('drops a duplicate, but downloads it again when it is marked dontFilter', async () => {
    class Again extends Spider {
      static override name = 'again';
      override startUrls = [site.url('/a1')];
      override *parse() {
        yield new Request(site.url('/p'), { callback: this.page, cbKwargs: { n: 1 } });
        yield new Request(site.url('/p'), { callback: this.page, cbKwargs: { n: 2 } });
        yield new Request(site.url('/p'), { callback: this.page, cbKwargs: { n: 3 }, dontFilter: true });
      }
      page(_response: Response, kwargs: Record<string, unknown>) {
        return { n: kwargs['n'] };
      }
    }
    site.reset();
    const result = await runCrawl(Again);
    expect(site.hits).toEqual(['/a1', '/p', '/p']);
    expect(result.items.map((i) => i['n']).sort()).toEqual([1, 3]);
    expect(result.stats['dupefilter/filtered']).toBe(1);
  });

  it('stops following links past DEPTH_LIMIT, counting request_depth_max', async () => {
    site.reset();
    const result = await runCrawl(follower('/'), { DEPTH_LIMIT: 1 });
    expect([...site.hits].sort()).toEqual(['/', '/a', '/b']);
    expect(result.stats['request_depth_max']).toBe(1);
    expect(result.lines).toContain(`Ignoring link (depth > 1): ${site.url('/a1')}`);
  });

  it('ignores links longer than URLLENGTH_LIMIT with a log line and stats', async () => {
    site.reset();
    const result = await runCrawl(follower('/long'), { URLLENGTH_LIMIT: 60 });
    expect(site.hits).toEqual(['/long', '/a1']);
    expect(result.lines).toContain(`Ignoring link (url length > 60): ${site.url(`/${'x'.repeat(80)}`)}`);
    expect(result.stats['urllength/request_ignored_count']).toBe(1);
  });

  it('sends the referring page as the Referer header', async () => {
    site.reset();
    class Ref extends Spider {
      static override name = 'ref';
      override startUrls = [site.url('/p')];
      override *parse() {
        yield new Request(site.url('/echo'), { callback: (r: Response) => r.json() as Item });
      }
    }
    const result = await runCrawl(Ref);
    expect(result.items).toEqual([{ referer: site.url('/p') }]);
  });
});

describe('scheduler order', () => {
  it('downloads the requests of one callback by priority (CONCURRENT_REQUESTS=1)', async () => {
    class Prio extends Spider {
      static override name = 'prio';
      override startUrls = [site.url('/p')];
      override *parse() {
        yield new Request(site.url('/a1'), { priority: 0, callback: () => undefined });
        yield new Request(site.url('/a2'), { priority: 10, callback: () => undefined });
        yield new Request(site.url('/b1'), { priority: 5, callback: () => undefined });
      }
    }
    site.reset();
    await runCrawl(Prio, { CONCURRENT_REQUESTS: 1 });
    expect(site.hits).toEqual(['/p', '/a2', '/b1', '/a1']);
  });

  it('crawls breadth-first with DEPTH_PRIORITY=1 and FIFO queues', async () => {
    site.reset();
    await runCrawl(follower('/'), { CONCURRENT_REQUESTS: 1, DEPTH_PRIORITY: 1, SCHEDULER_MEMORY_QUEUE: 'FifoMemoryQueue' });
    expect(site.hits).toEqual(['/', '/a', '/b', '/a1', '/a2', '/b1', '/b2']);
  });

  it('takes the last-queued request first by default (LIFO queues), as Scrapy', async () => {
    site.reset();
    await runCrawl(follower('/'), { CONCURRENT_REQUESTS: 1 });
    // The next request starts while the page before it is still being parsed,
    // so the exact interleaving is not fixed (Scrapy 2.8 gives /, /b, /a, /b2,
    // /b1, /a2, /a1); siblings always come last-yielded first.
    const at = (path: string) => site.hits.indexOf(path);
    expect(site.hits).toHaveLength(7);
    expect(at('/b')).toBeLessThan(at('/a'));
    expect(at('/b2')).toBeLessThan(at('/b1'));
    expect(at('/a2')).toBeLessThan(at('/a1'));
  });
});

describe('http-error', () => {
  class Missing extends Spider {
    static override name = 'missing';
    override async *start() {
      yield new Request(site.url('/nope'), { errback: this.failed });
      yield new Request(site.url('/nope?unhandled'));
      yield new Request(site.url('/p'));
    }
    override parse(response: Response) {
      return { status: response.status, url: response.url };
    }
    failed(this: Missing, error: Error, request: Request) {
      const response = (error as Error & { response?: Response }).response;
      return { errback: error.name, status: response?.status ?? null, url: request.url, spider: this instanceof Missing };
    }
  }

  it('keeps a 404 from the callback: the errback gets it, or else it is logged and counted (as Scrapy)', async () => {
    const result = await runCrawl(Missing);
    expect(result.items).toContainEqual({ status: 200, url: site.url('/p') });
    expect(result.items).toContainEqual({ errback: 'HttpError', status: 404, url: site.url('/nope'), spider: true });
    expect(result.items).toHaveLength(2);
    expect(result.lines.filter((l) => l.startsWith('Ignoring response'))).toEqual([
      `Ignoring response <404 ${site.url('/nope?unhandled')}>: HTTP status code is not handled or not allowed`,
    ]);
    expect(result.stats['httperror/response_ignored_count']).toBe(1);
    expect(result.stats['httperror/response_ignored_status_count/404']).toBe(1);
  });

  it('gives a 404 to the callback when HTTPERROR_ALLOWED_CODES lists it', async () => {
    const result = await runCrawl(Missing, { HTTPERROR_ALLOWED_CODES: [404] });
    expect(result.items).toContainEqual({ status: 404, url: site.url('/nope') });
    expect(result.items).toContainEqual({ status: 404, url: site.url('/nope?unhandled') });
    expect(result.stats['httperror/response_ignored_count']).toBeUndefined();
  });
});

describe('callbacks and errbacks', () => {
  it('accepts every callback form, with this = the spider and cbKwargs as the second argument', async () => {
    class Forms extends Spider {
      static override name = 'forms';
      readonly tag = 'mine';
      override async *start() {
        const forms = ['generator', 'asyncGenerator', 'array', 'promise', 'observable', 'single', 'nothing'] as const;
        for (const form of forms) {
          yield new Request(site.url(`/p?${form}`), { callback: this[form], cbKwargs: { form } });
        }
      }
      *generator(_r: Response, kw: Record<string, unknown>) {
        yield { form: kw['form'], tag: this.tag };
      }
      async *asyncGenerator(_r: Response, kw: Record<string, unknown>) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield { form: kw['form'], tag: this.tag };
      }
      array(_r: Response, kw: Record<string, unknown>) {
        return [{ form: kw['form'], tag: this.tag }];
      }
      async promise(_r: Response, kw: Record<string, unknown>) {
        return { form: kw['form'], tag: this.tag };
      }
      observable(_r: Response, kw: Record<string, unknown>) {
        return of<SpiderOutput>({ form: kw['form'], tag: this.tag });
      }
      single(_r: Response, kw: Record<string, unknown>) {
        return { form: kw['form'], tag: this.tag };
      }
      nothing() {
        return undefined;
      }
    }
    const result = await runCrawl(Forms);
    expect(result.items.map((i) => i['form']).sort()).toEqual(['array', 'asyncGenerator', 'generator', 'observable', 'promise', 'single']);
    expect(result.items.every((i) => i['tag'] === 'mine')).toBe(true);
    expect(result.stats['response_received_count']).toBe(7);
  });

  it('logs a callback error and goes on with the other pages', async () => {
    class Broken extends Spider {
      static override name = 'broken';
      override startUrls = [site.url('/p'), site.url('/a1')];
      override parse(response: Response) {
        if (response.url.endsWith('/p')) throw new Error('boom');
        return { ok: response.url };
      }
    }
    const result = await runCrawl(Broken);
    expect(result.items).toEqual([{ ok: site.url('/a1') }]);
    expect(result.lines).toContain(`Spider error processing <GET ${site.url('/p')}> (referer: None)`);
    expect(result.stats['spider_exceptions/Error']).toBe(1);
  });
});

describe('item pipelines and user middlewares', () => {
  it('runs processItem in order of number, awaits async ones, and drops with a warning and item_dropped_count', async () => {
    const seen: string[] = [];
    class Second implements ItemPipeline {
      async processItem(item: Item) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(`second:${String((item as { n?: number }).n)}`);
        if ((item as { n?: number }).n === 2) throw new DropItem('even number');
        return { ...item, second: true };
      }
    }
    class First implements ItemPipeline {
      processItem(item: Item) {
        seen.push(`first:${String((item as { n?: number }).n)}`);
        return { ...item, first: true };
      }
    }
    class Items extends Spider {
      static override name = 'items';
      static override customSettings = { ITEM_PIPELINES: new Map<unknown, number>([[Second, 500], [First, 100]]) };
      override startUrls = [site.url('/p')];
      override *parse() {
        yield { n: 1 };
        yield { n: 2 };
      }
    }
    const result = await runCrawl(Items);
    expect(result.items).toEqual([{ n: 1, first: true, second: true }]);
    // Two items go through at once (CONCURRENT_ITEMS); each passes First (100) before Second (500).
    expect(seen.filter((s) => s === 'first:1' || s === 'second:1')).toEqual(['first:1', 'second:1']);
    expect(seen.filter((s) => s === 'first:2' || s === 'second:2')).toEqual(['first:2', 'second:2']);
    expect(result.stats['item_dropped_count']).toBe(1);
    expect(result.stats['item_dropped_reasons_count/DropItem']).toBe(1);
    const dropped = result.logs.find((l) => l.message.startsWith('Dropped:'));
    expect(dropped?.level).toBe('WARNING');
    expect(dropped?.message).toBe('Dropped: even number\n{"n":2,"first":true}');
  });

  it('runs user downloader and spider middlewares given as classes, and disables a built-in mapped to null', async () => {
    class Stamp implements DownloaderMiddleware {
      processRequest(request: Request) {
        request.headers.set('X-Stamp', 'yes');
        return null;
      }
      processResponse(_request: Request, response: Response) {
        return response.replace({ status: response.status, flags: ['stamped'] });
      }
    }
    class Tag implements SpiderMiddleware {
      async *processSpiderOutput(_response: Response, result: AsyncIterable<SpiderOutput>) {
        for await (const output of result) yield { ...(output as Item), tagged: true };
      }
    }
    class Mw extends Spider {
      static override name = 'mw';
      static override customSettings = {
        DOWNLOADER_MIDDLEWARES: new Map<unknown, number | null>([[Stamp, 543], ['DefaultHeadersMiddleware', null]]),
        SPIDER_MIDDLEWARES: new Map<unknown, number>([[Tag, 543]]),
      };
      override startUrls = [site.url('/p')];
      override parse(response: Response) {
        return { flags: response.flags };
      }
    }
    site.reset();
    const result = await runCrawl(Mw);
    expect(result.items).toEqual([{ flags: ['stamped'], tagged: true }]);
    expect(site.requests[0]!.headers['x-stamp']).toBe('yes');
    expect(site.requests[0]!.headers['accept-language']).toBeUndefined();
  });

  it('sets spider arguments as attributes after construction', async () => {
    class Args extends Spider {
      static override name = 'args';
      declare tag?: string;
      override async *start() {
        yield { tag: this.tag ?? null };
      }
    }
    const result = await runCrawl(Args, {}, { tag: 'humor' });
    expect(result.items).toEqual([{ tag: 'humor' }]);
  });
});
