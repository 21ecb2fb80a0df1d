import type { Request, Item } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider } from './spider.js';
import type { Crawler } from './crawler.js';

/**
 * The contracts of user and built-in components, Scrapy's in camelCase.
 * Every hook may be async. A component class may have a static
 * `fromCrawler(crawler)` factory (it may throw NotConfigured to switch
 * itself off); otherwise it is constructed with no arguments.
 */
export type Awaitable<T> = T | Promise<T>;
export type SpiderOutput = Item | Request;

export interface DownloaderMiddleware {
  /** Return null/undefined to continue, a Response to skip the download, a Request to reschedule; throw IgnoreRequest to drop. */
  processRequest?(request: Request, spider: Spider): Awaitable<Request | Response | null | undefined | void>;
  /** Return the Response (possibly another) to continue, or a Request to reschedule; throw IgnoreRequest to drop. */
  processResponse?(request: Request, response: Response, spider: Spider): Awaitable<Request | Response>;
  /** Return null/undefined to let the next middleware handle it, a Response or Request to recover. */
  processException?(request: Request, error: Error, spider: Spider): Awaitable<Request | Response | null | undefined | void>;
  openSpider?(spider: Spider): Awaitable<void>;
  closeSpider?(spider: Spider, reason: string): Awaitable<void>;
}

export interface SpiderMiddleware {
  /** Called for each response before the callback; throw to send it to processSpiderException / the errback. */
  processSpiderInput?(response: Response, spider: Spider): Awaitable<void>;
  /** Filters or changes what a callback produced. */
  processSpiderOutput?(response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider): AsyncIterable<SpiderOutput>;
  /** Return outputs to recover from a callback error, or null/undefined to pass it on. */
  processSpiderException?(response: Response, error: Error, spider: Spider): Awaitable<Iterable<SpiderOutput> | AsyncIterable<SpiderOutput> | null | undefined | void>;
  /** Filters or changes the spider's start requests and items. */
  processStart?(start: AsyncIterable<SpiderOutput>, spider: Spider): AsyncIterable<SpiderOutput>;
  openSpider?(spider: Spider): Awaitable<void>;
  closeSpider?(spider: Spider, reason: string): Awaitable<void>;
}

export interface ItemPipeline {
  /** Return the item (or a changed one) to pass it on; throw DropItem to drop it. */
  processItem(item: Item, spider: Spider): Awaitable<Item>;
  openSpider?(spider: Spider): Awaitable<void>;
  closeSpider?(spider: Spider, reason: string): Awaitable<void>;
}

export interface Extension {
  openSpider?(spider: Spider): Awaitable<void>;
  closeSpider?(spider: Spider, reason: string): Awaitable<void>;
}

export type ComponentClass<T> = (new () => T) & { fromCrawler?(crawler: Crawler): T };
