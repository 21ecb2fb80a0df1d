import { describe, expect, it } from '@jest/globals';
import { Request, type Response } from '../../src/index.js';
import { RenderingPredictor } from '../../src/adaptive/rendering-predictor.js';
import { pageKindOf } from '../../src/adaptive/page-kind.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { fakeCrawler, recordLogs } from '../helpers/fake-crawler.js';

class Shop {
  parseList(_response: Response) {}
  parseProduct(_response: Response) {}
}
const shop = new Shop();
const list = (n: number): Request => new Request(`http://shop.test/list/${n}`, { callback: shop.parseList, meta: { playwright: 'auto' } });
const product = (id: string): Request => new Request(`http://shop.test/p/${id}`, { callback: shop.parseProduct, meta: { playwright: 'auto' } });

describe('pageKindOf', () => {
  it('is the host and the callback name; a rule number for CrawlSpider; meta.playwright_auto_kind replaces the callback part', () => {
    expect(pageKindOf(list(1))).toBe('shop.test parseList');
    expect(pageKindOf(new Request('http://shop.test:8080/a', { callback: shop.parseList.bind(shop) }))).toBe('shop.test:8080 parseList');
    expect(pageKindOf(new Request('http://shop.test/a'))).toBe('shop.test parse');
    expect(pageKindOf(new Request('http://shop.test/a', { callback: shop.parseList, meta: { rule: 2 } }))).toBe('shop.test parseList rule 2');
    expect(pageKindOf(new Request('http://shop.test/a', { meta: { playwright_auto_kind: 'article' } }))).toBe('shop.test article');
  });
});

describe('RenderingPredictor', () => {
  it('sends unknown and plain kinds plain, browser kinds to the browser, and every Nth browser page plain again', () => {
    const crawler = fakeCrawler({ PLAYWRIGHT_AUTO_RECHECK: 3 });
    const predictor = RenderingPredictor.of(crawler);
    expect(RenderingPredictor.of(crawler)).toBe(predictor);
    expect(predictor.wantsBrowser(list(1))).toBe(false);
    predictor.learn(list(1), true);
    predictor.learn(product('a'), false);
    expect([2, 3, 4, 5, 6, 7].map((n) => predictor.wantsBrowser(list(n)))).toEqual([true, true, false, true, true, false]);
    expect(predictor.wantsBrowser(product('b'))).toBe(false);
    expect(crawler.stats.get('playwright/auto/rechecks')).toBe(2);
  });

  it('renders a suspected kind until it is judged; 0 never re-checks', () => {
    const predictor = RenderingPredictor.of(fakeCrawler({ PLAYWRIGHT_AUTO_RECHECK: 0 }));
    predictor.suspect(list(1));
    expect(predictor.knownNeed(list(2))).toBeUndefined();
    expect(predictor.wantsBrowser(list(2))).toBe(true);
    predictor.learn(list(1), true);
    expect(Array.from({ length: 50 }, (_, n) => predictor.wantsBrowser(list(n))).every(Boolean)).toBe(true);
    predictor.learn(list(1), false);
    predictor.suspect(list(1));
    expect(predictor.wantsBrowser(list(3))).toBe(false);
  });

  it('logs each change of mind once at INFO', () => {
    const crawler = fakeCrawler();
    const logs = recordLogs(crawler.logBus);
    const predictor = RenderingPredictor.of(crawler);
    predictor.learn(list(1), true);
    predictor.learn(list(2), true);
    predictor.learn(list(3), false);
    predictor.learn(list(4), true);
    expect(logs.textLines('seine.adaptive')).toEqual([
      'INFO [seine.adaptive] shop.test parseList: pages need the browser; later ones go straight to it',
      'INFO [seine.adaptive] shop.test parseList: pages do not need the browser; later ones are downloaded plain (they needed it before)',
      'INFO [seine.adaptive] shop.test parseList: pages need the browser; later ones go straight to it (they did not before)',
    ]);
    expect(crawler.stats.get('playwright/auto/learned_browser')).toBe(2);
  });

  it('refuses a negative PLAYWRIGHT_AUTO_RECHECK with one line', () => {
    expect(() => RenderingPredictor.of(fakeCrawler({ PLAYWRIGHT_AUTO_RECHECK: -1 }))).toThrow(new SettingsError('Setting PLAYWRIGHT_AUTO_RECHECK must be a whole number ≥ 0 (0: never re-check), got -1'));
  });
});
