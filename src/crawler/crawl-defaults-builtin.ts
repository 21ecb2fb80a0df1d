import type { Request } from '../http/request.js';
import { cachedFingerprint } from '../http/fingerprint.js';
import { createSpider } from '../contracts/create-spider.js';
import { DOWNLOAD_HANDLERS_BY_NAME, DownloadHandlers } from '../download/handlers/index.js';
import { BrowserDownloadHandler } from '../browser/index.js';
import { AdaptiveRenderingMiddleware, adaptiveWants } from '../adaptive/index.js';
import { MemoryStatsCollector } from '../stats/index.js';
import { RedisScheduler, Scheduler } from '../scheduler/index.js';
import { frontierSettings, RedisRateBuckets, usesRedisScheduler } from '../frontier/index.js';
import { DownloadSlots } from '../throttle/index.js';
import { DOWNLOADER_MIDDLEWARES_BASE } from '../middlewares/downloader/index.js';
import { SPIDER_MIDDLEWARES_BASE } from '../middlewares/spider/index.js';
import { RobotsTxtMiddleware } from '../robots/index.js';
import { SessionsMiddleware } from '../sessions/index.js';
import { ProxyPoolMiddleware } from '../proxies/index.js';
import { CoreStats } from '../extensions/core-stats.js';
import { LogStats } from '../extensions/log-stats.js';
import { CloseSpiderExtension } from '../extensions/close-spider-extension.js';
import { TelnetConsole } from '../extensions/telnet-console.js';
import { AutoThrottle } from '../extensions/auto-throttle.js';
import { HeapSizing } from '../extensions/heap-sizing.js';
import { MemoryUsage } from '../extensions/memory-usage.js';
import { SpiderState } from '../extensions/spider-state.js';
import { Watchdog } from '../extensions/watchdog.js';
import { WarcWriter } from '../warc/index.js';
import { Dashboard } from '../dashboard/dashboard-extension.js';
import type { ComponentClass, DownloaderMiddleware, Extension, ItemPipeline, SpiderMiddleware } from '../contracts/components.js';
import { startThrough, type CrawlDefaults } from './crawl-defaults.js';
import { FilesPipeline } from '../media/files-pipeline.js';
import { ImagesPipeline } from '../media/images-pipeline.js';
import { ItemValidationPipeline } from '../validation/index.js';
import { Monitors } from '../monitors/index.js';
import { WorkerHub, WorkerPool, workerCommand, workerLink, workerNumber, workerScheduler, workersNeedTheCli, workersSetting } from '../workers/index.js';

/** The slots a crawler's scheduler and throttle share (the DownloaderAwarePriorityQueue reads them). */
const slotsOf = new WeakMap<object, DownloadSlots>();

/** seine's built-in parts of a crawl. */
export const CRAWL_DEFAULTS: CrawlDefaults = {
  createSpider: (cls, args) => createSpider(cls, args),
  createStats: (crawler) => MemoryStatsCollector.fromCrawler(crawler),
  finishStats: (crawler) => (crawler.stats as MemoryStatsCollector).closeSpider(),
  createFetch(crawler) {
    const handlers = new DownloadHandlers(crawler, {
      builtIn: DOWNLOAD_HANDLERS_BY_NAME,
      // Reads (and checks) the PLAYWRIGHT_* settings now; the browser itself starts with the first request that wants it.
      // meta.playwright 'auto' asks what the crawl learned about the page's kind (src/adaptive/).
      chosenByRequest: { wants: adaptiveWants(crawler, BrowserDownloadHandler.wantsFor(crawler)), handler: BrowserDownloadHandler },
      signal: crawler.abortController.signal,
    });
    return Object.assign((request: Request) => handlers.download(request), { warmUp: () => handlers.warmUp() });
  },
  createSlots(crawler) {
    const slots = DownloadSlots.fromCrawler(crawler);
    slotsOf.set(crawler, slots);
    // A DOWNLOAD_SLOTS rate holds over every worker of a shared crawl: its starts are reserved in Redis, or by the coordinator of --workers.
    if (workerNumber() !== null) {
      // A worker of --workers N: its slots' delays are spaced over every worker too (a slot without one never asks).
      slots.shareRates(workerLink(), { delays: true });
    } else if (slots.hasRates && usesRedisScheduler(crawler.settings)) {
      const { url, keyPrefix } = frontierSettings(crawler.settings, crawler.spider.name);
      const buckets = new RedisRateBuckets(url, keyPrefix);
      slots.shareRates(buckets);
      const closing = crawler.events$.subscribe((event) => {
        if (event.type !== 'spider_closed') return;
        closing.unsubscribe();
        void buckets.close();
      });
    }
    return slots;
  },
  createScheduler(crawler) {
    const slots = slotsOf.get(crawler);
    const memoized = cachedFingerprint();
    // --workers N: a worker leases from its coordinator; the coordinator keeps the one queue and starts the workers.
    const worker = workerNumber();
    if (worker !== null) return workerScheduler(crawler, worker, memoized, slots);
    const workers = workersSetting(crawler.settings);
    if (workers > 1) {
      const command = workerCommand();
      if (command === null) throw workersNeedTheCli(workers);
      const inner = Scheduler.fromCrawler(crawler, slots === undefined ? { fingerprint: memoized } : { fingerprint: memoized, slots });
      const limits = slots ?? DownloadSlots.fromCrawler(crawler);
      return new WorkerHub(crawler, inner, { slotKey: (r) => limits.slotKey(r), limitsOf: (key) => limits.limitsOf(key) }, new WorkerPool(workers, command));
    }
    if (usesRedisScheduler(crawler.settings)) {
      const scheduler = RedisScheduler.fromCrawler(crawler, {
        fingerprint: memoized,
        ...(slots === undefined ? {} : { slotKey: (r: Request) => slots.slotKey(r), slotDelayMs: (key: string) => slots.slot(key)?.delayMs }),
      });
      // A slot a Retry-After paused here is paused for every worker's leases.
      slots?.whenPaused((key, untilMs) => scheduler.pauseSlot(key, untilMs - Date.now()));
      return scheduler;
    }
    return Scheduler.fromCrawler(crawler, slots === undefined ? { fingerprint: memoized } : { fingerprint: memoized, slots });
  },
  startOf: startThrough,
  downloaderMiddlewares: new Map<string, ComponentClass<DownloaderMiddleware>>([
    ...Object.entries(DOWNLOADER_MIDDLEWARES_BASE),
    ['RobotsTxtMiddleware', RobotsTxtMiddleware as unknown as ComponentClass<DownloaderMiddleware>],
    ['SessionsMiddleware', SessionsMiddleware as unknown as ComponentClass<DownloaderMiddleware>],
    ['ProxyPoolMiddleware', ProxyPoolMiddleware as unknown as ComponentClass<DownloaderMiddleware>],
  ]),
  spiderMiddlewares: new Map<string, ComponentClass<SpiderMiddleware>>([
    ...Object.entries(SPIDER_MIDDLEWARES_BASE),
    ['AdaptiveRenderingMiddleware', AdaptiveRenderingMiddleware as unknown as ComponentClass<SpiderMiddleware>],
  ]),
  pipelines: new Map<string, ComponentClass<ItemPipeline>>([
    ['FilesPipeline', FilesPipeline as unknown as ComponentClass<ItemPipeline>],
    ['ImagesPipeline', ImagesPipeline as unknown as ComponentClass<ItemPipeline>],
    ['ItemValidationPipeline', ItemValidationPipeline as unknown as ComponentClass<ItemPipeline>],
  ]),
  extensions: new Map<string, ComponentClass<Extension>>([
    ['CoreStats', CoreStats as unknown as ComponentClass<Extension>],
    ['LogStats', LogStats as unknown as ComponentClass<Extension>],
    // Scrapy's EXTENSIONS name; the class is named apart from the CloseSpider exception.
    ['CloseSpider', CloseSpiderExtension as unknown as ComponentClass<Extension>],
    ['AutoThrottle', AutoThrottle as unknown as ComponentClass<Extension>],
    ['TelnetConsole', TelnetConsole as unknown as ComponentClass<Extension>],
    ['MemoryUsage', MemoryUsage as unknown as ComponentClass<Extension>],
    ['SpiderState', SpiderState as unknown as ComponentClass<Extension>],
    ['Watchdog', Watchdog as unknown as ComponentClass<Extension>],
    ['HeapSizing', HeapSizing as unknown as ComponentClass<Extension>],
    ['WarcWriter', WarcWriter as unknown as ComponentClass<Extension>],
    ['Monitors', Monitors as unknown as ComponentClass<Extension>],
    ['Dashboard', Dashboard as unknown as ComponentClass<Extension>],
  ]),
};
