import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider, SpiderClass } from '../contracts/spider.js';
import type { ComponentClass, DownloaderMiddleware, Extension, ItemPipeline, SpiderMiddleware, SpiderOutput } from '../contracts/components.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { CrawlerImpl } from './crawler-impl.js';
import type { EngineSlots } from '../engine/engine-state.js';
import type { EngineScheduler } from '../contracts/scheduler.js';

/**
 * The parts a crawl is assembled from. The defaults are seine's built-ins;
 * tests and users who assemble their own crawl replace any of them (a fake
 * network, a shared queue).
 */
export interface CrawlDefaults {
  createSpider(cls: SpiderClass, args: Record<string, string>): Spider;
  createStats(crawler: CrawlerImpl): StatsCollector;
  /** Called after spider_closed: the stats dump. */
  finishStats(crawler: CrawlerImpl, reason: string): void;
  /** The crawl's download function; `warmUp`, when given, loads what it needs and is awaited before the first request leaves. */
  createFetch(crawler: CrawlerImpl): ((request: Request) => Promise<Response>) & { warmUp?: () => Promise<void> };
  /** Called after createSlots. */
  createScheduler(crawler: Crawler): EngineScheduler;
  createSlots(crawler: Crawler): EngineSlots;
  /** The spider's start() through the spider middlewares' processStart. */
  startOf(spider: Spider, middlewares: readonly SpiderMiddleware[]): AsyncIterable<SpiderOutput>;
  downloaderMiddlewares: ReadonlyMap<string, ComponentClass<DownloaderMiddleware>>;
  spiderMiddlewares: ReadonlyMap<string, ComponentClass<SpiderMiddleware>>;
  pipelines: ReadonlyMap<string, ComponentClass<ItemPipeline>>;
  extensions: ReadonlyMap<string, ComponentClass<Extension>>;
}

/** `start` (default: the spider's `start()`) through the spider middlewares' `processStart`, outermost last. */
export function startThrough(
  spider: Spider,
  middlewares: readonly SpiderMiddleware[],
  source: AsyncIterable<SpiderOutput> | Iterable<SpiderOutput> = spider.start() as AsyncIterable<SpiderOutput>,
): AsyncIterable<SpiderOutput> {
  let start = toAsync(source);
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const mw = middlewares[i]!;
    if (mw.processStart !== undefined) start = mw.processStart(start, spider);
  }
  return start;
}

async function* fromSync<T>(values: Iterable<T>): AsyncIterable<T> {
  yield* values;
}

function toAsync<T>(values: AsyncIterable<T> | Iterable<T>): AsyncIterable<T> {
  return Symbol.asyncIterator in values ? values : fromSync(values);
}

export { CRAWL_DEFAULTS } from './crawl-defaults-builtin.js';
