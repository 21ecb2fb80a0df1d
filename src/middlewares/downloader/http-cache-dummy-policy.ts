import type { Crawler } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import { requestScheme, type HttpCachePolicy } from './http-cache-interfaces.js';

export interface DummyPolicyOptions {
  /** HTTPCACHE_IGNORE_SCHEMES: URL schemes never cached. Default `['file']`. */
  ignoreSchemes?: Iterable<string>;
  /** HTTPCACHE_IGNORE_HTTP_CODES: response statuses never stored. Default none. */
  ignoreHttpCodes?: Iterable<number>;
}

/**
 * Scrapy's DummyPolicy, the default: every response is stored (except for
 * the ignored schemes and statuses) and every cached response is used as
 * it is, whatever its headers say, until HTTPCACHE_EXPIRATION_SECS makes
 * the storage forget it. For developing a spider offline, not for
 * mirroring a site's caching rules (that is RFC2616Policy).
 */
export class DummyPolicy implements HttpCachePolicy {
  readonly ignoreSchemes: ReadonlySet<string>;
  readonly ignoreHttpCodes: ReadonlySet<number>;

  constructor(options: DummyPolicyOptions = {}) {
    this.ignoreSchemes = new Set(options.ignoreSchemes ?? DEFAULT_SETTINGS.HTTPCACHE_IGNORE_SCHEMES);
    this.ignoreHttpCodes = new Set(options.ignoreHttpCodes ?? DEFAULT_SETTINGS.HTTPCACHE_IGNORE_HTTP_CODES);
  }

  static fromCrawler(crawler: Crawler): DummyPolicy {
    const { settings } = crawler;
    return new DummyPolicy({
      ignoreSchemes: settings.get('HTTPCACHE_IGNORE_SCHEMES'),
      ignoreHttpCodes: settings.get('HTTPCACHE_IGNORE_HTTP_CODES'),
    });
  }

  shouldCacheRequest(request: Request): boolean {
    return !this.ignoreSchemes.has(requestScheme(request));
  }

  shouldCacheResponse(response: Response, _request?: Request): boolean {
    return !this.ignoreHttpCodes.has(response.status);
  }

  isCachedResponseFresh(_cachedResponse: Response, _request: Request): boolean {
    return true;
  }

  isCachedResponseValid(_cachedResponse: Response, _response: Response, _request?: Request): boolean {
    return true;
  }
}
