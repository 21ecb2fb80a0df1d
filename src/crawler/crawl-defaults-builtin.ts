import type { Request } from '../http/request.js';
import { cachedFingerprint } from '../http/fingerprint.js';
import { createSpider } from '../contracts/create-spider.js';
import { gotFetchOptionsFromSettings } from '../download/got-options.js';
import { lazyGotFetch } from '../download/lazy-got-fetch.js';
import { browserDownloader } from '../browser/index.js';
import type { WarnSizeStage } from '../download/fetch-contract.js';
import { MemoryStatsCollector } from '../stats/index.js';
import { RedisScheduler, Scheduler } from '../scheduler/index.js';
import { usesRedisScheduler } from '../frontier/index.js';
import { DownloadSlots } from '../throttle/index.js';
import { DOWNLOADER_MIDDLEWARES_BASE } from '../middlewares/downloader/index.js';
import { SPIDER_MIDDLEWARES_BASE } from '../middlewares/spider/index.js';
import { RobotsTxtMiddleware } from '../robots/index.js';
import { CoreStats } from '../extensions/core-stats.js';
import { LogStats } from '../extensions/log-stats.js';
import { CloseSpider } from '../extensions/close-spider.js';
import { TelnetConsole } from '../extensions/telnet-console.js';
import { AutoThrottle } from '../extensions/auto-throttle.js';
import { HeapSizing } from '../extensions/heap-sizing.js';
import { MemoryUsage } from '../extensions/memory-usage.js';
import { SpiderState } from '../extensions/spider-state.js';
import { Watchdog } from '../extensions/watchdog.js';
import type { ComponentClass, DownloaderMiddleware, Extension, ItemPipeline, SpiderMiddleware } from '../contracts/components.js';
import { startThrough, type CrawlDefaults } from './crawl-defaults.js';

/** Scrapy's warnings (its HTTP/1.1 handler; the decompressed one as HttpCompressionMiddleware >= 2.11 words it), with the size. */
function warnSizeMessage(stage: WarnSizeStage, size: number, warnSize: number, request: string): string {
  if (stage === 'expected') return `Expected response size (${size}) larger than download warn size (${warnSize}) in request ${request}.`;
  if (stage === 'received') return `Received more bytes than download warn size (${warnSize}) in request ${request} (${size} bytes).`;
  return `Decompressed response size (${size}) larger than download warn size (${warnSize}) in request ${request}.`;
}

/** The slots a crawler's scheduler and throttle share (the DownloaderAwarePriorityQueue reads them). */
const slotsOf = new WeakMap<object, DownloadSlots>();

/** seine's built-in parts of a crawl. */
export const CRAWL_DEFAULTS: CrawlDefaults = {
  createSpider: (cls, args) => createSpider(cls, args),
  createStats: (crawler) => MemoryStatsCollector.fromCrawler(crawler),
  finishStats: (crawler) => (crawler.stats as MemoryStatsCollector).closeSpider(),
  createFetch(crawler) {
    const settings = crawler.settings;
    const fetch = lazyGotFetch(gotFetchOptionsFromSettings(settings));
    const timeoutMs = settings.getFloat('DOWNLOAD_TIMEOUT') * 1000;
    const maxSize = settings.getInt('DOWNLOAD_MAXSIZE');
    const warnSize = settings.getInt('DOWNLOAD_WARNSIZE');
    const logger = crawler.logBus.getLogger('seine.core.downloader');
    // Checks the PLAYWRIGHT_* settings now; the browser itself starts with the first request that wants it.
    const browser = browserDownloader(crawler);
    const download = (request: Request) => {
      const meta = request.meta;
      if (browser.wants(request)) {
        return browser.fetch(request, {
          signal: crawler.abortController.signal,
          timeoutMs: typeof meta['download_timeout'] === 'number' ? meta['download_timeout'] * 1000 : null,
        });
      }
      const requestWarnSize = typeof meta['download_warnsize'] === 'number' ? meta['download_warnsize'] : warnSize;
      return fetch(request, {
        signal: crawler.abortController.signal,
        timeoutMs: typeof meta['download_timeout'] === 'number' ? meta['download_timeout'] * 1000 : timeoutMs,
        maxSize: typeof meta['download_maxsize'] === 'number' ? meta['download_maxsize'] : maxSize,
        warnSize: requestWarnSize,
        onWarnSize: (size, stage) => logger.warning(warnSizeMessage(stage, size, requestWarnSize, request.toString())),
        proxy: typeof meta['proxy'] === 'string' ? meta['proxy'] : null,
      });
    };
    return Object.assign(download, { warmUp: fetch.warmUp });
  },
  createSlots(crawler) {
    const slots = DownloadSlots.fromCrawler(crawler);
    slotsOf.set(crawler, slots);
    return slots;
  },
  createScheduler(crawler) {
    const slots = slotsOf.get(crawler);
    const memoized = cachedFingerprint();
    if (usesRedisScheduler(crawler.settings)) {
      return RedisScheduler.fromCrawler(crawler, {
        fingerprint: memoized,
        ...(slots === undefined ? {} : { slotKey: (r: Request) => slots.slotKey(r), slotDelayMs: (key: string) => slots.slot(key)?.delayMs }),
      });
    }
    return Scheduler.fromCrawler(crawler, slots === undefined ? { fingerprint: memoized } : { fingerprint: memoized, slots });
  },
  startOf: startThrough,
  downloaderMiddlewares: new Map<string, ComponentClass<DownloaderMiddleware>>([
    ...Object.entries(DOWNLOADER_MIDDLEWARES_BASE),
    ['RobotsTxtMiddleware', RobotsTxtMiddleware as unknown as ComponentClass<DownloaderMiddleware>],
  ]),
  spiderMiddlewares: new Map<string, ComponentClass<SpiderMiddleware>>(Object.entries(SPIDER_MIDDLEWARES_BASE)),
  pipelines: new Map<string, ComponentClass<ItemPipeline>>(),
  extensions: new Map<string, ComponentClass<Extension>>([
    ['CoreStats', CoreStats as unknown as ComponentClass<Extension>],
    ['LogStats', LogStats as unknown as ComponentClass<Extension>],
    ['CloseSpider', CloseSpider as unknown as ComponentClass<Extension>],
    ['AutoThrottle', AutoThrottle as unknown as ComponentClass<Extension>],
    ['TelnetConsole', TelnetConsole as unknown as ComponentClass<Extension>],
    ['MemoryUsage', MemoryUsage as unknown as ComponentClass<Extension>],
    ['SpiderState', SpiderState as unknown as ComponentClass<Extension>],
    ['Watchdog', Watchdog as unknown as ComponentClass<Extension>],
    ['HeapSizing', HeapSizing as unknown as ComponentClass<Extension>],
  ]),
};
