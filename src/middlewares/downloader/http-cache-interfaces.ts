/**
 * The two parts HttpCacheMiddleware is made of, Scrapy's interfaces in
 * camelCase: a policy decides what is cached and whether a cached response
 * may be used as it is; a storage keeps responses. HTTPCACHE_POLICY and
 * HTTPCACHE_STORAGE name a built-in one or hold a class of your own.
 */
import type { Awaitable } from '../../contracts/components.js';
import type { Crawler } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import type { Settings } from '../../settings/settings.js';
import type { Spider } from '../../contracts/spider.js';

export interface HttpCachePolicy {
  /** May this request's response come from, and go into, the cache? */
  shouldCacheRequest(request: Request): boolean;
  /** May this downloaded response be stored? */
  shouldCacheResponse(response: Response, request: Request): boolean;
  /**
   * May the cached response be used without asking the server? When not,
   * the policy may add validators to the request (If-None-Match, …) before
   * it is downloaded.
   */
  isCachedResponseFresh(cachedResponse: Response, request: Request): boolean;
  /** After a download that revalidated a stale entry: is the cached response still the answer (e.g. a 304)? */
  isCachedResponseValid(cachedResponse: Response, response: Response, request: Request): boolean;
}

export interface HttpCacheStorage {
  openSpider?(spider: Spider): Awaitable<void>;
  closeSpider?(spider: Spider): Awaitable<void>;
  /** The cached response for the request, or null when there is none (or it expired). */
  retrieveResponse(spider: Spider, request: Request): Awaitable<Response | null>;
  storeResponse(spider: Spider, request: Request, response: Response): Awaitable<void>;
}

/**
 * A policy or storage class given in a setting: built with its static
 * `fromCrawler(crawler)` when it has one, else with `new Class(settings)`,
 * as Scrapy builds them.
 */
export type HttpCacheComponentClass<T> = (new (...args: never[]) => T) & { fromCrawler?(crawler: Crawler): T };

/** Builds a policy or storage class as HttpCacheComponentClass says. */
export function buildCacheComponent<T>(cls: HttpCacheComponentClass<T>, crawler: Crawler): T {
  if (cls.fromCrawler !== undefined) return cls.fromCrawler(crawler);
  return new (cls as unknown as new (settings: Settings) => T)(crawler.settings);
}
export type HttpCachePolicyClass = HttpCacheComponentClass<HttpCachePolicy>;
export type HttpCacheStorageClass = HttpCacheComponentClass<HttpCacheStorage>;

/** The request URL's scheme, lower-cased (`http`, `file`, `data`, …), which HTTPCACHE_IGNORE_SCHEMES lists. */
export function requestScheme(request: Request): string {
  return /^([a-z][a-z0-9+.-]*):/i.exec(request.url)?.[1]?.toLowerCase() ?? '';
}
