import type { DownloaderMiddleware } from '../../contracts/components.js';
import { IgnoreRequest, NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import { Response } from '../../http/response.js';
import type { Settings } from '../../settings/settings.js';
import { SettingsError } from '../../settings/settings-error.js';
import type { Spider } from '../../contracts/spider.js';
import { NULL_STATS } from '../spider/component-options.js';
import {
  buildCacheComponent,
  type HttpCacheComponentClass,
  type HttpCachePolicy,
  type HttpCacheStorage,
} from './http-cache-interfaces.js';
import { DummyPolicy } from './http-cache-dummy-policy.js';
import { FilesystemCacheStorage } from './http-cache-filesystem-storage.js';
import { formatHttpDate } from '../../http/http-date.js';
import { RFC2616Policy } from './http-cache-rfc2616-policy.js';
import { isRetryableError } from './retryable-errors.js';

export interface HttpCacheOptions {
  /** Default: a DummyPolicy with the default settings. */
  policy?: HttpCachePolicy;
  /** Default: a FilesystemCacheStorage in `.seine/httpcache` (see FilesystemCacheStorage). */
  storage?: HttpCacheStorage;
  /** HTTPCACHE_IGNORE_MISSING: drop requests whose response is not in the cache (IgnoreRequest) instead of downloading them. */
  ignoreMissing?: boolean;
  /** The crawl's stats; counts are dropped when absent. */
  stats?: StatsCollector;
  /** For tests: the clock that dates responses without a Date header, in ms since the epoch. */
  now?: () => number;
}

/** Where a request waiting for revalidation keeps its stale cached response (Scrapy's key). */
const CACHED_RESPONSE_META = 'cached_response';
/** Marks a request the policy will not cache, so processResponse leaves its response alone (Scrapy's key). */
const UNCACHEABLE_META = '_dont_cache';

const POLICIES: Readonly<Record<string, HttpCacheComponentClass<HttpCachePolicy>>> = { DummyPolicy, RFC2616Policy };
const STORAGES: Readonly<Record<string, HttpCacheComponentClass<HttpCacheStorage>>> = { FilesystemCacheStorage };

/**
 * HTTPCACHE_POLICY / HTTPCACHE_STORAGE as a class: the class itself, or a
 * built-in's name, also as Scrapy's path (`scrapy.extensions.httpcache.DummyPolicy`).
 */
function componentClass<T>(settings: Settings, name: 'HTTPCACHE_POLICY' | 'HTTPCACHE_STORAGE', known: Readonly<Record<string, HttpCacheComponentClass<T>>>): HttpCacheComponentClass<T> {
  const value = settings.get(name);
  if (typeof value === 'function') return value as unknown as HttpCacheComponentClass<T>;
  const cls = known[value.trim().replace(/^scrapy\.extensions\.httpcache\./, '')];
  if (cls !== undefined) return cls;
  const source = settings.getSource(name);
  throw new SettingsError(
    `Setting ${name} is ${JSON.stringify(value)}${source === undefined ? '' : ` (from ${source})`}, which seine does not know: ` +
      `use ${Object.keys(known).map((key) => `'${key}'`).join(' or ')}, or give a class of your own`,
  );
}

/**
 * Scrapy's HttpCacheMiddleware: keeps every response it may, and answers
 * later requests for the same thing (same fingerprint) from the cache
 * instead of the network, so re-running a spider while writing it does not
 * hit the site again. HTTPCACHE_ENABLED switches it on; the policy
 * (HTTPCACHE_POLICY) says what is cached and when a cached response is
 * stale, the storage (HTTPCACHE_STORAGE) keeps them. A cached response is
 * flagged `cached` (the `Crawled` log line shows it). `meta.dont_cache`
 * leaves a request alone. Stats: `httpcache/hit`, `miss`, `ignore`,
 * `firsthand`, `store`, `uncacheable`, and with revalidation
 * `revalidate`, `invalidate`, `errorrecovery`.
 */
export class HttpCacheMiddleware implements DownloaderMiddleware {
  readonly policy: HttpCachePolicy;
  readonly storage: HttpCacheStorage;
  readonly ignoreMissing: boolean;
  readonly #stats: StatsCollector;
  readonly #now: () => number;

  constructor(options: HttpCacheOptions = {}) {
    this.policy = options.policy ?? new DummyPolicy();
    this.storage = options.storage ?? new FilesystemCacheStorage();
    this.ignoreMissing = options.ignoreMissing ?? false;
    this.#stats = options.stats ?? NULL_STATS;
    this.#now = options.now ?? Date.now;
  }

  static fromCrawler(crawler: Crawler): HttpCacheMiddleware {
    const { settings } = crawler;
    if (!settings.getBool('HTTPCACHE_ENABLED')) throw new NotConfigured('HTTPCACHE_ENABLED is off');
    return new HttpCacheMiddleware({
      policy: buildCacheComponent(componentClass(settings, 'HTTPCACHE_POLICY', POLICIES), crawler),
      storage: buildCacheComponent(componentClass(settings, 'HTTPCACHE_STORAGE', STORAGES), crawler),
      ignoreMissing: settings.getBool('HTTPCACHE_IGNORE_MISSING'),
      stats: crawler.stats,
    });
  }

  async openSpider(spider: Spider): Promise<void> {
    await this.storage.openSpider?.(spider);
  }

  async closeSpider(spider: Spider): Promise<void> {
    await this.storage.closeSpider?.(spider);
  }

  async processRequest(request: Request, spider: Spider): Promise<Response | null> {
    if (request.meta.dont_cache) return null;
    if (!this.policy.shouldCacheRequest(request)) {
      request.meta[UNCACHEABLE_META] = true;
      return null;
    }
    const cached = await this.storage.retrieveResponse(spider, request);
    if (cached === null) {
      this.#stats.inc('httpcache/miss');
      if (this.ignoreMissing) {
        this.#stats.inc('httpcache/ignore');
        throw new IgnoreRequest(`Ignored request not in cache: ${request.toString()}`);
      }
      return null;
    }
    cached.flags.push('cached');
    if (this.policy.isCachedResponseFresh(cached, request)) {
      this.#stats.inc('httpcache/hit');
      return cached;
    }
    // Stale: the request is downloaded (with the validators the policy added); processResponse decides.
    request.meta[CACHED_RESPONSE_META] = cached;
    return null;
  }

  async processResponse(request: Request, response: Response, spider: Spider): Promise<Response> {
    if (request.meta.dont_cache) return response;
    if (response.flags.includes('cached') || UNCACHEABLE_META in request.meta) {
      delete request.meta[UNCACHEABLE_META];
      return response;
    }
    // RFC 2616 requires servers to send Date; freshness is computed from it.
    if (!response.headers.has('Date')) response.headers.set('Date', formatHttpDate(this.#now()));
    const cached = takeCachedResponse(request);
    if (cached === null) {
      this.#stats.inc('httpcache/firsthand');
      await this.#store(spider, request, response);
      return response;
    }
    if (this.policy.isCachedResponseValid(cached, response, request)) {
      this.#stats.inc('httpcache/revalidate');
      return cached;
    }
    this.#stats.inc('httpcache/invalidate');
    await this.#store(spider, request, response);
    return response;
  }

  /** A stale cached response still beats a network failure. */
  processException(request: Request, error: Error): Response | null {
    const cached = takeCachedResponse(request);
    if (cached === null || !isRetryableError(error)) return null;
    this.#stats.inc('httpcache/errorrecovery');
    return cached;
  }

  async #store(spider: Spider, request: Request, response: Response): Promise<void> {
    if (this.policy.shouldCacheResponse(response, request)) {
      this.#stats.inc('httpcache/store');
      await this.storage.storeResponse(spider, request, response);
    } else {
      this.#stats.inc('httpcache/uncacheable');
    }
  }
}

function takeCachedResponse(request: Request): Response | null {
  const cached = request.meta[CACHED_RESPONSE_META];
  delete request.meta[CACHED_RESPONSE_META];
  return cached instanceof Response ? cached : null;
}
