/**
 * `meta.playwright: 'auto'` on a local shop, rendered with Debian's
 * Chromium: listings whose product links an inline script writes, product
 * pages in plain HTML. A spider asking 'auto' for every page gets every
 * product once; the browser renders listings only, the first one after a
 * plain try and the others straight away; a site that stops needing its
 * script is noticed at a re-check, and a kind learned plain whose page comes
 * back empty is rendered and relearned.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Request, Spider, type Response } from '../../src/index.js';
import { runCrawl, type CrawlResult } from '../helpers/site-server.js';
import { allProductIds, startShopSite, type ShopSite } from './fixtures/shop-site.js';

const TIMEOUT = 90_000;
const LISTS = 10;

class ShopSpider extends Spider {
  static override name = 'shop';
  declare base: string;

  override async *start() {
    yield new Request(`${this.base}/list/1`, { callback: this.parseList, meta: { playwright: 'auto' } });
  }

  *parseList(response: Response) {
    for (const href of response.css('a.product::attr(href)').getall()) {
      yield response.follow(href, { callback: this.parseProduct, meta: { playwright: 'auto' } });
    }
    const next = response.css('a.next::attr(href)').get();
    if (next !== null) yield response.follow(next, { callback: this.parseList, meta: { playwright: 'auto' } });
  }

  *parseProduct(response: Response) {
    const name = response.css('h1::text').get();
    if (name !== null) yield { name, price: response.css('span.price::text').get(), rendered: response.flags.includes('playwright') };
  }
}

/** The same spider deciding itself: a listing needs the browser when its product list is empty. */
class HookedShopSpider extends ShopSpider {
  static override name = 'hookedshop';
  needsBrowser(response: Response): boolean {
    return response.css('#products a').length === 0 && response.url.includes('/list/');
  }
}

/** A product callback that throws on a page without its details (IndexError), as many real callbacks do. */
class StrictShopSpider extends ShopSpider {
  static override name = 'strictshop';
  override *parseProduct(response: Response) {
    const name = response.css('h1::text')[0]!.get();
    yield { name, price: response.css('span.price::text').get(), rendered: response.flags.includes('playwright') };
  }
}

let site: ShopSite;
beforeAll(async () => {
  site = await startShopSite(LISTS);
});
beforeEach(() => {
  site.reset();
  site.serverRendersFrom = Infinity;
  site.scriptProducts.clear();
});
afterAll(async () => {
  await site.close();
});

const SETTINGS = { ROBOTSTXT_OBEY: false, CONCURRENT_REQUESTS: 4 };
const names = (result: CrawlResult): string[] => result.items.map((item) => String(item['name'])).sort();
const expectedNames = (): string[] => allProductIds(LISTS).map((id) => `Product ${id}`).sort();
const lists = (paths: string[]): string[] => paths.filter((path) => path.startsWith('/list/')).sort();
const adaptiveLines = (result: CrawlResult): string[] => result.logs.filter((event) => event.logger === 'seine.adaptive' && event.level === 'INFO').map((event) => event.message);

describe("meta.playwright: 'auto'", () => {
  it('scrapes every product once, renders listings only, and after the first listing sends the others straight to the browser', async () => {
    const result = await runCrawl(ShopSpider, { ...SETTINGS, PLAYWRIGHT_AUTO_RECHECK: 0 }, { base: site.url('') });
    expect(result.reason).toBe('finished');
    expect(names(result)).toEqual(expectedNames());
    expect(result.items.every((item) => item['rendered'] === false)).toBe(true);
    // Every listing rendered once, no product page ever; only /list/1 was downloaded plain (to learn).
    expect(lists(site.rendered())).toEqual(lists(Array.from({ length: LISTS }, (_, i) => `/list/${i + 1}`)));
    expect(site.rendered().filter((path) => path.startsWith('/product/'))).toEqual([]);
    expect(lists(site.plain())).toEqual(['/list/1']);
    expect(result.stats).toMatchObject({
      'playwright/auto/plain': LISTS * 3,
      'playwright/auto/rendered_after_plain': 1,
      'playwright/auto/rendered': LISTS - 1,
      'playwright/auto/learned_browser': 1,
      'playwright/auto/learned_plain': 1,
    });
    expect(result.stats['playwright/auto/rechecks']).toBeUndefined();
    const host = new URL(site.url('')).host;
    expect(adaptiveLines(result).sort()).toEqual([
      `${host} parseList: pages need the browser; later ones go straight to it`,
      `${host} parseProduct: pages do not need the browser; later ones are downloaded plain`,
    ]);
  }, TIMEOUT);

  it('re-checks every PLAYWRIGHT_AUTO_RECHECK-th listing plain, and goes plain once the site stops needing its script', async () => {
    site.serverRendersFrom = 5;
    const result = await runCrawl(ShopSpider, { ...SETTINGS, PLAYWRIGHT_AUTO_RECHECK: 3 }, { base: site.url('') });
    expect(result.reason).toBe('finished');
    expect(names(result)).toEqual(expectedNames());
    // /list/1: plain, then rendered (learned); 2, 3 rendered; 4: re-check, still scripted, rendered; 5, 6 rendered;
    // 7: re-check, written by the server now: rendered once to compare, then the kind flips. /list/8 (found by
    // 7's plain page) may already be on its way to the browser when the verdict comes; the last ones go plain.
    const plain = lists(site.plain());
    expect(plain.filter((path) => ['/list/1', '/list/4', '/list/7'].includes(path))).toEqual(['/list/1', '/list/4', '/list/7']);
    expect(plain).toContain('/list/10');
    expect(lists(site.rendered()).slice(0, 7)).toEqual(['/list/1', '/list/2', '/list/3', '/list/4', '/list/5', '/list/6', '/list/7']);
    expect(site.rendered()).not.toContain('/list/10');
    expect(result.stats).toMatchObject({ 'playwright/auto/rechecks': 2, 'playwright/auto/learned_browser': 1, 'playwright/auto/learned_plain': 2 });
    const host = new URL(site.url('')).host;
    expect(adaptiveLines(result)).toContain(`${host} parseList: pages do not need the browser; later ones are downloaded plain (they needed it before)`);
  }, TIMEOUT);

  it('renders a page of a kind learned plain that comes back empty, and relearns the kind', async () => {
    // Products of the last listing are written by a script: their kind was learned plain on earlier ones.
    for (let i = 1; i <= 3; i++) site.scriptProducts.add(`${LISTS}-${i}`);
    const result = await runCrawl(ShopSpider, { ...SETTINGS, PLAYWRIGHT_AUTO_RECHECK: 0 }, { base: site.url('') });
    expect(names(result)).toEqual(expectedNames());
    const rendered = new Set(result.items.filter((item) => item['rendered'] === true).map((item) => item['name']));
    for (let i = 1; i <= 3; i++) expect(rendered).toContain(`Product ${LISTS}-${i}`);
    expect(result.stats['playwright/auto/mispredictions_corrected']).toBeGreaterThanOrEqual(1);
    const host = new URL(site.url('')).host;
    expect(adaptiveLines(result)).toContain(`${host} parseProduct: pages need the browser; later ones go straight to it (they did not before)`);
  }, TIMEOUT);

  it('renders a plain page whose callback throws, instead of reporting the error', async () => {
    site.scriptProducts.add('2-2');
    const result = await runCrawl(StrictShopSpider, { ...SETTINGS, PLAYWRIGHT_AUTO_RECHECK: 0 }, { base: site.url('') });
    expect(names(result)).toEqual(expectedNames());
    expect(result.items.find((item) => item['name'] === 'Product 2-2')!['rendered']).toBe(true);
    expect(Object.keys(result.stats).filter((key) => key.startsWith('spider_exceptions'))).toEqual([]);
    expect(result.lines.filter((line) => line.startsWith('Spider error'))).toEqual([]);
  }, TIMEOUT);

  it("lets the spider's needsBrowser(response, result) decide", async () => {
    const result = await runCrawl(HookedShopSpider, { ...SETTINGS, PLAYWRIGHT_AUTO_RECHECK: 0 }, { base: site.url('') });
    expect(names(result)).toEqual(expectedNames());
    expect(lists(site.plain())).toEqual(['/list/1']);
    expect(site.rendered().filter((path) => path.startsWith('/product/'))).toEqual([]);
    expect(result.stats).toMatchObject({ 'playwright/auto/rendered_after_plain': 1, 'playwright/auto/rendered': LISTS - 1 });
  }, TIMEOUT);

  it('fails as meta.playwright: true does when the browser cannot start', async () => {
    const settings = { ...SETTINGS, PLAYWRIGHT_LAUNCH_OPTIONS: { executablePath: '/no/such/chrome' } };
    const auto = await runCrawl(ShopSpider, settings, { base: site.url('') });
    class AlwaysRendered extends ShopSpider {
      static override name = 'rendered';
      override async *start() {
        yield new Request(`${this.base}/list/1`, { callback: this.parseList, meta: { playwright: true } });
      }
    }
    const rendered = await runCrawl(AlwaysRendered, settings, { base: site.url('') });
    // Each page that needed the browser fails as a rendered one does: the same error, through the errback path.
    const problems = (result: CrawlResult): Set<string> => new Set(result.lines.filter((line) => line.includes('/no/such/chrome')).map((line) => line.replace(/<GET [^>]+>/, '<GET …>')));
    expect([...problems(auto)]).toEqual([
      'Error downloading <GET …>: PLAYWRIGHT_LAUNCH_OPTIONS.executablePath is /no/such/chrome, which is not an executable file: install Chromium there or fix the path',
    ]);
    expect(problems(auto)).toEqual(problems(rendered));
    expect(auto.reason).toBe(rendered.reason);
    expect(auto.items).toEqual([]);
    expect(auto.stats['playwright/auto/rendered_after_plain']).toBe(1);
  }, TIMEOUT);
});
