import type { DownloaderMiddleware } from '../../contracts/components.js';
import type { Crawler } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';

export interface DefaultHeadersOptions {
  /** Header name → value (or values); null values are skipped. */
  headers?: Readonly<Record<string, string | readonly string[] | null>>;
}

/**
 * Sets DEFAULT_REQUEST_HEADERS on every request that does not already have
 * them, as Scrapy's DefaultHeadersMiddleware. Headers are set on the request
 * in place: returning a changed copy from processRequest would reschedule it.
 */
export class DefaultHeadersMiddleware implements DownloaderMiddleware {
  readonly headers: ReadonlyArray<readonly [string, string | readonly string[]]>;

  constructor(options: DefaultHeadersOptions = {}) {
    this.headers = Object.entries(options.headers ?? {}).filter(
      (entry): entry is [string, string | readonly string[]] => entry[1] !== null && entry[1] !== undefined,
    );
  }

  static fromCrawler(crawler: Crawler): DefaultHeadersMiddleware {
    return new DefaultHeadersMiddleware({ headers: crawler.settings.getDict('DEFAULT_REQUEST_HEADERS') as DefaultHeadersOptions['headers'] });
  }

  processRequest(request: Request): void {
    for (const [name, value] of this.headers) {
      if (request.headers.has(name)) continue;
      if (typeof value === 'string') request.headers.set(name, value);
      else request.headers.setList(name, value.map(String));
    }
  }
}
