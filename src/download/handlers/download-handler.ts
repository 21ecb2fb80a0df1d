import type { Crawler } from '../../contracts/crawler.js';
import type { Spider } from '../../contracts/spider.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';

/**
 * Scrapy's download handler: what downloads the requests of one URL scheme
 * (DOWNLOAD_HANDLERS). It may return `new Response({ url, status, headers,
 * body })`; the registry attaches the request when the response has none.
 */
export interface DownloadHandler {
  downloadRequest(request: Request, spider: Spider): Promise<Response>;
  /** Called once when the crawl closes, for a handler that was used. */
  close?(): unknown;
  /** Loads what the handler needs before the crawl's first request leaves (got, for H2DownloadHandler). */
  warmUp?(): Promise<void>;
}

/** What the registry hands a handler besides the crawler. */
export interface DownloadHandlerContext {
  /** Aborted when the crawl is stopped at once (a second Ctrl-C): transfers in flight end. */
  signal: AbortSignal;
}

/** A handler class: `fromCrawler` (when it has one) builds it with the crawl's settings, else `new`. */
export interface DownloadHandlerClass {
  new (...args: never[]): DownloadHandler;
  fromCrawler?(crawler: Crawler, context: DownloadHandlerContext): DownloadHandler;
}
