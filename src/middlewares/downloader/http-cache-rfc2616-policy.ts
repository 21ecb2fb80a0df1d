import type { Crawler } from '../../contracts/crawler.js';
import { isRequest, type Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import { requestScheme, type HttpCachePolicy } from './http-cache-interfaces.js';
import { lastHeader, parseCacheControl, pythonInt } from './http-cache-headers.js';
import { parseHttpDate } from '../../http/http-date.js';

export interface RFC2616PolicyOptions {
  /** HTTPCACHE_ALWAYS_STORE: store every response (but `no-store` ones and 304s), fresh or not. Default false. */
  alwaysStore?: boolean;
  /** HTTPCACHE_IGNORE_SCHEMES: URL schemes never cached. Default `['file']`. */
  ignoreSchemes?: Iterable<string>;
  /** HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS: response Cache-Control directives to act as if absent (e.g. `no-store`). */
  ignoreResponseCacheControls?: Iterable<string>;
  /** For tests: the clock, in ms since the epoch. */
  now?: () => number;
}

type Directives = Map<string, string | null>;

/** How long a 300, 301 or 308 without expiry information stays fresh: a year, as in Firefox. */
const MAX_AGE = 3600 * 24 * 365;

/**
 * Scrapy's RFC2616Policy: a cache that follows the site's HTTP caching
 * headers as a browser would.
 *
 * - Not cached: ignored schemes, requests with `Cache-Control: no-store`,
 *   responses with `no-store`, 304s. Stored: responses with `max-age` or
 *   `Expires`; 300, 301 and 308; 200, 203 and 401 with `Last-Modified` or
 *   `ETag` (they can be revalidated); with HTTPCACHE_ALWAYS_STORE, all.
 * - Fresh (served without asking the server) while its age — now minus its
 *   `Date`, or its `Age` header if larger — is below its lifetime: the
 *   response's `max-age`, else `Expires − Date`, else a tenth of
 *   `Date − Last-Modified` (Firefox's heuristic), else a year for
 *   300/301/308, else 0. A request's `max-age` can shorten the lifetime,
 *   its `max-stale` lengthen it (not past a `must-revalidate`), and
 *   `no-cache` on either side makes the entry stale.
 * - Stale: the request goes to the server with `If-Modified-Since` (the
 *   cached `Last-Modified`) and `If-None-Match` (the cached `ETag`); a 304,
 *   or a 5xx when the cached response did not say `must-revalidate`,
 *   means the cached response is the answer.
 */
export class RFC2616Policy implements HttpCachePolicy {
  readonly alwaysStore: boolean;
  readonly ignoreSchemes: ReadonlySet<string>;
  readonly ignoreResponseCacheControls: readonly string[];
  readonly #now: () => number;
  readonly #parsed = new WeakMap<Request | Response, Directives>();

  constructor(options: RFC2616PolicyOptions = {}) {
    this.alwaysStore = options.alwaysStore ?? DEFAULT_SETTINGS.HTTPCACHE_ALWAYS_STORE;
    this.ignoreSchemes = new Set(options.ignoreSchemes ?? DEFAULT_SETTINGS.HTTPCACHE_IGNORE_SCHEMES);
    this.ignoreResponseCacheControls = [...(options.ignoreResponseCacheControls ?? DEFAULT_SETTINGS.HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS)].map((name) => name.toLowerCase());
    this.#now = options.now ?? Date.now;
  }

  static fromCrawler(crawler: Crawler): RFC2616Policy {
    const { settings } = crawler;
    return new RFC2616Policy({
      alwaysStore: settings.get('HTTPCACHE_ALWAYS_STORE'),
      ignoreSchemes: settings.get('HTTPCACHE_IGNORE_SCHEMES'),
      ignoreResponseCacheControls: settings.get('HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS'),
    });
  }

  shouldCacheRequest(request: Request): boolean {
    if (this.ignoreSchemes.has(requestScheme(request))) return false;
    return !this.#cacheControl(request).has('no-store');
  }

  shouldCacheResponse(response: Response, _request?: Request): boolean {
    const cc = this.#cacheControl(response);
    if (cc.has('no-store')) return false;
    // A 304 only confirms another response; there is nothing to keep.
    if (response.status === 304) return false;
    if (this.alwaysStore) return true;
    if (cc.has('max-age') || response.headers.has('Expires')) return true;
    if (response.status === 300 || response.status === 301 || response.status === 308) return true;
    // Without expiry information, a response is worth keeping only if it can be revalidated.
    if (response.status === 200 || response.status === 203 || response.status === 401) {
      return response.headers.has('Last-Modified') || response.headers.has('ETag');
    }
    return false;
  }

  isCachedResponseFresh(cachedResponse: Response, request: Request): boolean {
    const cc = this.#cacheControl(cachedResponse);
    const ccRequest = this.#cacheControl(request);
    if (cc.has('no-cache') || ccRequest.has('no-cache')) return false;

    const now = this.#now() / 1000;
    let lifetime = this.#freshnessLifetime(cachedResponse, now);
    const age = this.#currentAge(cachedResponse, now);
    const requestMaxAge = maxAge(ccRequest);
    if (requestMaxAge !== null) lifetime = Math.min(lifetime, requestMaxAge);
    if (age < lifetime) return true;

    if (ccRequest.has('max-stale') && !cc.has('must-revalidate')) {
      // `max-stale` alone accepts any staleness; with a value, that many seconds of it.
      const stale = ccRequest.get('max-stale') ?? null;
      if (stale === null) return true;
      const seconds = pythonInt(stale);
      if (seconds !== null && age < lifetime + Math.max(0, seconds)) return true;
    }

    this.#setConditionalValidators(request, cachedResponse);
    return false;
  }

  isCachedResponseValid(cachedResponse: Response, response: Response, _request?: Request): boolean {
    // A server error keeps the cached response in use, unless it asked to be revalidated without fail.
    if (response.status >= 500 && !this.#cacheControl(cachedResponse).has('must-revalidate')) return true;
    return response.status === 304;
  }

  #cacheControl(message: Request | Response): Directives {
    let parsed = this.#parsed.get(message);
    if (parsed === undefined) {
      parsed = parseCacheControl(message.headers.getList('Cache-Control'));
      // Only a response's directives can be ignored, as in Scrapy.
      if (!isRequest(message)) for (const name of this.ignoreResponseCacheControls) parsed.delete(name);
      this.#parsed.set(message, parsed);
    }
    return parsed;
  }

  #setConditionalValidators(request: Request, cachedResponse: Response): void {
    const lastModified = lastHeader(cachedResponse.headers, 'Last-Modified');
    if (lastModified !== null) request.headers.set('If-Modified-Since', lastModified);
    const etag = lastHeader(cachedResponse.headers, 'ETag');
    if (etag !== null) request.headers.set('If-None-Match', etag);
  }

  // After Firefox's nsHttpResponseHead::ComputeFreshnessLifetime, as Scrapy does.
  #freshnessLifetime(response: Response, now: number): number {
    const responseMaxAge = maxAge(this.#cacheControl(response));
    if (responseMaxAge !== null) return responseMaxAge;
    // A missing or unreadable Date (or the epoch itself, as in Scrapy) counts as now.
    const date = parseHttpDate(lastHeader(response.headers, 'Date')) || now;
    if (response.headers.has('Expires')) {
      // An Expires that does not parse is in the past (RFC 2616 §14.21).
      const expires = parseHttpDate(lastHeader(response.headers, 'Expires'));
      return expires ? Math.max(0, expires - date) : 0;
    }
    const lastModified = parseHttpDate(lastHeader(response.headers, 'Last-Modified'));
    if (lastModified && lastModified <= date) return (date - lastModified) / 10;
    if (response.status === 300 || response.status === 301 || response.status === 308) return MAX_AGE;
    return 0;
  }

  // After Firefox's nsHttpResponseHead::ComputeCurrentAge: without a Date the clocks are taken to agree.
  #currentAge(response: Response, now: number): number {
    const date = parseHttpDate(lastHeader(response.headers, 'Date')) || now;
    let age = now > date ? now - date : 0;
    const ageHeader = pythonInt(lastHeader(response.headers, 'Age'));
    if (ageHeader !== null) age = Math.max(age, ageHeader);
    return age;
  }
}

function maxAge(cc: Directives): number | null {
  const value = pythonInt(cc.get('max-age'));
  return value === null ? null : Math.max(0, value);
}
