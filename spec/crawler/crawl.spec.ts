import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { lastValueFrom, take, toArray } from 'rxjs';
import { Request, Spider, crawl, type Response } from '../../src/index.js';
import { quotesSite, startSite, type TestSite } from '../helpers/site-server.js';

let site: TestSite;
beforeAll(async () => {
  site = await startSite({ ...quotesSite(3), '/robots.txt': 'User-agent: *\nDisallow: /private/\n' });
});
afterAll(async () => site.close());

function quotesSpider(startPath = '/page/1/') {
  return class QuotesSpider extends Spider {
    static override name = 'quotes';
    override startUrls = [site.url(startPath)];

    override *parse(response: Response) {
      for (const quote of response.css('div.quote')) {
        yield { text: quote.css('span.text::text').get(), author: quote.css('small.author::text').get() };
      }
      const next = response.css('li.next a::attr(href)').get();
      if (next !== null) yield response.follow(next, this.parse);
    }
  };
}

describe('crawl() in code', () => {
  it('follows every page and emits every item, in page order', async () => {
    const run = crawl(quotesSpider(), { settings: { LOG_LEVEL: 'INFO', TELNETCONSOLE_ENABLED: false } });
    const items = await lastValueFrom(run.items$.pipe(toArray()));
    expect(items.map((i) => (i as { text: string }).text)).toEqual([
      'Quote 1.1', 'Quote 1.2', 'Quote 2.1', 'Quote 2.2', 'Quote 3.1', 'Quote 3.2',
    ]);
    expect(run.stats?.get('item_scraped_count')).toBe(6);
    expect(run.stats?.get('finish_reason')).toBe('finished');
  });

  it('requests robots.txt before the first page when ROBOTSTXT_OBEY is on', async () => {
    site.hits.length = 0;
    const run = crawl(quotesSpider(), { settings: { ROBOTSTXT_OBEY: true, TELNETCONSOLE_ENABLED: false } });
    await lastValueFrom(run.items$.pipe(toArray()));
    expect(site.hits.slice(0, 2)).toEqual(['/robots.txt', '/page/1/']);
    expect(site.hits.filter((h) => h === '/robots.txt')).toHaveLength(1);
  });

  it('ends the crawl when the subscriber takes what it needs', async () => {
    const run = crawl(quotesSpider(), { settings: { TELNETCONSOLE_ENABLED: false } });
    const firstThree = await lastValueFrom(run.items$.pipe(take(3), toArray()));
    expect(firstThree).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(run.stats?.get('finish_reason')).toBe('cancelled');
  });

  it('logs the lines of docs/logging.md in order', async () => {
    const run = crawl(quotesSpider(), { settings: { TELNETCONSOLE_ENABLED: false } });
    const logs = await lastValueFrom(run.logs$.pipe(toArray()));
    const messages = logs.map((l) => l.message.split('\n')[0]!);
    const order = ['Spider opened', 'Crawled (200) <GET ' + site.url('/page/1/') + '> (referer: None)', 'Scraped from <200 ' + site.url('/page/1/') + '>', 'Closing spider (finished)', 'Spider closed (finished)'];
    const positions = order.map((m) => messages.indexOf(m));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('drops a duplicate request and counts it', async () => {
    class Twice extends Spider {
      static override name = 'twice';
      override startUrls = [site.url('/page/1/')];
      override *parse(response: Response) {
        yield new Request(site.url('/page/2/'), { callback: this.parse });
        yield new Request(site.url('/page/2/'), { callback: this.parse });
        yield { url: response.url };
      }
    }
    const run = crawl(Twice, { settings: { TELNETCONSOLE_ENABLED: false } });
    const items = await lastValueFrom(run.items$.pipe(toArray()));
    expect(items).toEqual([{ url: site.url('/page/1/') }, { url: site.url('/page/2/') }]);
    expect(run.stats?.get('dupefilter/filtered')).toBe(3);
  });
});
