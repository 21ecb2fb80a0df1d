import { describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../../src/contracts/control-flow.js';
import { SPIDER_MIDDLEWARES_BASE } from '../../../src/middlewares/spider/index.js';
import { DEFAULT_SETTINGS } from '../../../src/settings/default-settings.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

describe('SPIDER_MIDDLEWARES_BASE (the classes)', () => {
  it('has a class for each name of the SPIDER_MIDDLEWARES_BASE setting, in its order', () => {
    const orders = DEFAULT_SETTINGS.SPIDER_MIDDLEWARES_BASE;
    // AdaptiveRenderingMiddleware lives in src/adaptive/ and is added by the crawler's assembly (crawl-defaults-builtin.ts).
    const here = Object.keys(orders).filter((name) => name !== 'AdaptiveRenderingMiddleware');
    expect(Object.keys(SPIDER_MIDDLEWARES_BASE)).toEqual(here.sort((a, b) => (orders[a] ?? 0) - (orders[b] ?? 0)));
    expect(orders).toEqual({ HttpErrorMiddleware: 50, AdaptiveRenderingMiddleware: 60, OffsiteMiddleware: 500, RefererMiddleware: 700, UrlLengthMiddleware: 800, DepthMiddleware: 900 });
  });

  it('builds every middleware from default settings, and each class is named as its key', () => {
    const crawler = fakeCrawler();
    for (const [name, cls] of Object.entries(SPIDER_MIDDLEWARES_BASE)) {
      expect(cls.name).toBe(name);
      expect(cls.fromCrawler(crawler)).toBeInstanceOf(cls);
      expect(new cls()).toBeInstanceOf(cls);
    }
  });

  it('switches off Referer with REFERER_ENABLED=false and UrlLength with URLLENGTH_LIMIT=0, and nothing else', () => {
    const crawler = fakeCrawler({ REFERER_ENABLED: false, URLLENGTH_LIMIT: 0 });
    const built = Object.entries(SPIDER_MIDDLEWARES_BASE).filter(([, cls]) => {
      try {
        cls.fromCrawler(crawler);
        return true;
      } catch (error) {
        if (error instanceof NotConfigured) return false;
        throw error;
      }
    });
    expect(built.map(([name]) => name)).toEqual(['HttpErrorMiddleware', 'OffsiteMiddleware', 'DepthMiddleware']);
  });
});
