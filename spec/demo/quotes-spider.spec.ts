/** The spider `seine demo` runs, crawled in code (crawl()) against the demo site. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { lastValueFrom, toArray } from 'rxjs';
import { crawl } from '../../src/index.js';
import { DemoQuotesSpider, QUOTES, startDemoSite, type DemoSite } from '../../src/demo/index.js';

let site: DemoSite;

beforeAll(async () => {
  site = await startDemoSite();
});

afterAll(async () => {
  await site.close();
});

describe('DemoQuotesSpider', () => {
  it('yields { text, author, tags } for all 100 quotes, following li.next a through the 10 pages', async () => {
    const run = crawl(DemoQuotesSpider, { args: { site: site.url }, settings: { LOG_ENABLED: false, TELNETCONSOLE_ENABLED: false } });
    const items = await lastValueFrom(run.items$.pipe(toArray()));
    expect(items).toEqual(QUOTES.map((quote) => ({ text: `“${quote.text}”`, author: quote.author, tags: [...quote.tags] })));
  });

  it('is named quotes, as the tutorial spider', () => {
    expect(new DemoQuotesSpider().name).toBe('quotes');
  });
});
