import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { Request, Spider, crawl, type Response } from '../../src/index.js';
import { QUIET, linksPage, quotesSite, runCrawl, slow, startSite, type TestSite } from '../helpers/site-server.js';

/** How a crawl ends: the completion rule, cancellation, the gate (pause/resume), CLOSESPIDER_*. */

let site: TestSite;
beforeAll(async () => {
  const chain = Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`/chain/${n}`, slow(60, linksPage([`/chain/${n + 1}`]))]));
  site = await startSite({
    ...quotesSite(10),
    ...chain,
    '/empty': '<html><body>nothing here</body></html>',
    '/hang': slow(30_000),
    '/gate/': linksPage(['/gate/1', '/gate/2', '/gate/3', '/gate/4']),
    '/gate/1': '<p>1</p>', '/gate/2': '<p>2</p>', '/gate/3': '<p>3</p>', '/gate/4': '<p>4</p>',
    '/gate/slow': slow(100, '<p>slow</p>'),
  });
});
afterAll(async () => site.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function quotes() {
  return class Quotes extends Spider {
    static override name = 'quotes';
    override startUrls = [site.url('/page/1/')];
    override *parse(response: Response) {
      for (const text of response.css('span.text::text').getall()) yield { text };
      const next = response.css('li.next a::attr(href)').get();
      if (next !== null) yield response.follow(next, this.parse);
    }
  };
}

describe('the completion rule', () => {
  it('ends a crawl whose callbacks yield nothing', async () => {
    class Quiet extends Spider {
      static override name = 'quiet';
      override startUrls = [site.url('/empty'), site.url('/page/1/')];
      override parse() {}
    }
    const started = Date.now();
    const result = await runCrawl(Quiet);
    expect(result.items).toEqual([]);
    expect(result.reason).toBe('finished');
    expect(result.stats['response_received_count']).toBe(2);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('waits for a start() that awaits timers between its requests and items', async () => {
    class Timed extends Spider {
      static override name = 'timed';
      override async *start() {
        yield new Request(site.url('/page/1/'), { callback: () => ({ page: 1 }) });
        await sleep(150);
        yield { fromStart: true };
        await sleep(150);
        yield new Request(site.url('/page/2/'), { callback: () => ({ page: 2 }) });
      }
    }
    const result = await runCrawl(Timed);
    expect(result.items).toEqual([{ page: 1 }, { fromStart: true }, { page: 2 }]);
    expect(result.reason).toBe('finished');
  });
});

describe('cancellation', () => {
  it('aborts in-flight requests when the last subscriber leaves, closing with finish_reason cancelled', async () => {
    class Hanging extends Spider {
      static override name = 'hanging';
      override startUrls = [site.url('/page/1/'), site.url('/hang')];
      override parse(response: Response) {
        return { url: response.url };
      }
    }
    site.reset();
    const run = crawl(Hanging, { settings: QUIET });
    const first = await firstValueFrom(run.items$);
    expect(first).toEqual({ url: site.url('/page/1/') });
    // /hang has reached the server by now or does so at once; the first item unsubscribed.
    for (let i = 0; i < 50 && !site.aborted.includes('/hang'); i++) await sleep(20);
    expect(site.hits).toContain('/hang');
    expect(site.aborted).toEqual(['/hang']);
    for (let i = 0; i < 50 && run.stats?.get('finish_reason') === undefined; i++) await sleep(20);
    expect(run.stats?.get('finish_reason')).toBe('cancelled');
  });
});

describe('the gate', () => {
  class Gated extends Spider {
    static override name = 'gated';
    override startUrls = [site.url('/gate/'), site.url('/gate/slow')];
    override *parse(response: Response) {
      yield { url: response.url };
      for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
    }
  }

  it('holds new requests and responses in flight while paused, and resumes to the same items as an unpaused crawl', async () => {
    const unpaused = await runCrawl(Gated);
    site.reset();
    const run = crawl(Gated, { settings: QUIET });
    const seen: string[] = [];
    let paused = false;
    const itemsDone = lastValueFrom(run.items$.pipe(toArray()));
    run.events$.subscribe((event) => {
      if (event.type !== 'response_received') return;
      seen.push(new URL(event.response.url).pathname);
      if (!paused) {
        paused = true;
        run.crawler!.pause();
      }
    });
    await sleep(300);
    // Only the two start URLs reached the server; /gate/slow was answered but waits at the gate.
    expect([...site.hits].sort()).toEqual(['/gate/', '/gate/slow']);
    expect(site.requests.map((r) => r.path).sort()).toEqual(['/gate/', '/gate/slow']);
    expect(seen).toEqual(['/gate/']);
    run.crawler!.resume();
    const items = await itemsDone;
    expect(items.map((i) => String((i as { url?: string }).url)).sort()).toEqual(unpaused.items.map((i) => String(i['url'])).sort());
    expect(items).toHaveLength(6);
    expect(run.stats?.get('finish_reason')).toBe('finished');
  });
});

describe('CLOSESPIDER_*', () => {
  it('closes with closespider_itemcount once CLOSESPIDER_ITEMCOUNT items are scraped', async () => {
    const result = await runCrawl(quotes(), { CLOSESPIDER_ITEMCOUNT: 3, CONCURRENT_REQUESTS: 1 });
    expect(result.reason).toBe('closespider_itemcount');
    expect(result.items.length).toBeGreaterThanOrEqual(3);
    expect(result.items.length).toBeLessThan(20);
    expect(result.lines).toContain('Closing spider (closespider_itemcount)');
  });

  it('closes with closespider_pagecount after CLOSESPIDER_PAGECOUNT responses', async () => {
    const result = await runCrawl(quotes(), { CLOSESPIDER_PAGECOUNT: 2 });
    expect(result.reason).toBe('closespider_pagecount');
    expect(result.stats['response_received_count']).toBe(2);
    expect(result.items).toHaveLength(4);
  });

  it('closes with closespider_timeout after CLOSESPIDER_TIMEOUT seconds', async () => {
    class Chain extends Spider {
      static override name = 'chain';
      override startUrls = [site.url('/chain/0')];
      override *parse(response: Response) {
        yield { url: response.url };
        for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
      }
    }
    const started = Date.now();
    const result = await runCrawl(Chain, { CLOSESPIDER_TIMEOUT: 0.3 });
    expect(result.reason).toBe('closespider_timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.items.length).toBeLessThan(30);
  });

  it('closes with closespider_errorcount after CLOSESPIDER_ERRORCOUNT callback errors', async () => {
    class Failing extends Spider {
      static override name = 'failing';
      override startUrls = [site.url('/page/1/')];
      override *parse(response: Response): Generator<Request> {
        const next = response.css('li.next a::attr(href)').get();
        if (next !== null) yield response.follow(next, this.parse);
        throw new Error(`bad page ${response.url}`);
      }
    }
    const result = await runCrawl(Failing, { CLOSESPIDER_ERRORCOUNT: 2, CONCURRENT_REQUESTS: 1 });
    expect(result.reason).toBe('closespider_errorcount');
    expect(result.stats['spider_exceptions/Error']).toBeGreaterThanOrEqual(2);
    expect(result.stats['spider_exceptions/Error']).toBeLessThan(10);
  });
});

describe('crawl() streams', () => {
  it('ends the crawl when the subscriber takes what it needs', async () => {
    const run = crawl(quotes(), { settings: QUIET });
    const firstThree = await lastValueFrom(run.items$.pipe(take(3), toArray()));
    expect(firstThree).toEqual([{ text: 'Quote 1.1' }, { text: 'Quote 1.2' }, { text: 'Quote 2.1' }]);
  });
});
