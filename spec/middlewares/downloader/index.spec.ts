import { CRAWL_DEFAULTS } from '../../../src/crawler/crawl-defaults.js';
import { describe, expect, it } from '@jest/globals';
import { DOWNLOADER_MIDDLEWARES_BASE } from '../../../src/middlewares/downloader/index.js';
import { DEFAULT_SETTINGS } from '../../../src/settings/index.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

describe('DOWNLOADER_MIDDLEWARES_BASE', () => {
  it('names each class as DOWNLOADER_MIDDLEWARES_BASE in the default settings does', () => {
    for (const [name, cls] of Object.entries(DOWNLOADER_MIDDLEWARES_BASE)) {
      expect([name, cls.name]).toEqual([name, name]);
      expect(Object.keys(DEFAULT_SETTINGS.DOWNLOADER_MIDDLEWARES_BASE)).toContain(name);
    }
  });

  it('covers every default downloader middleware but those of other folders (robots, sessions, proxies), which the crawl registry adds', () => {
    const missing = Object.keys(DEFAULT_SETTINGS.DOWNLOADER_MIDDLEWARES_BASE).filter((name) => !(name in DOWNLOADER_MIDDLEWARES_BASE));
    expect(missing.sort()).toEqual(['ProxyPoolMiddleware', 'RobotsTxtMiddleware', 'SessionsMiddleware']);
    expect(Object.keys(DEFAULT_SETTINGS.DOWNLOADER_MIDDLEWARES_BASE).filter((name) => !CRAWL_DEFAULTS.downloaderMiddlewares.has(name))).toEqual([]);
  });

  it('builds every middleware from a crawler with the default settings (and the HTTP cache, off by default, switched on)', () => {
    const crawler = fakeCrawler({ HTTPCACHE_ENABLED: true });
    for (const cls of Object.values(DOWNLOADER_MIDDLEWARES_BASE)) {
      expect(cls.fromCrawler?.(crawler)).toBeInstanceOf(cls);
      expect(new cls()).toBeInstanceOf(cls);
    }
  });
});
