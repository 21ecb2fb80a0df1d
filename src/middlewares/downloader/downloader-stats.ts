import type { DownloaderMiddleware } from '../../contracts/components.js';
import { NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { NULL_STATS } from '../spider/component-options.js';
import { requestSize, responseSize } from './http-size.js';

export interface DownloaderStatsOptions {
  /** Where to count; counts are dropped when absent. */
  stats?: StatsCollector;
}

/**
 * Counts what passes the downloader, under Scrapy's keys:
 * `downloader/request_count`, `downloader/request_method_count/GET`,
 * `downloader/request_bytes`, `downloader/response_count`,
 * `downloader/response_status_count/200`, `downloader/response_bytes`,
 * `downloader/exception_count`, `downloader/exception_type_count/<error name>`.
 * DOWNLOADER_STATS=false switches it off.
 */
export class DownloaderStats implements DownloaderMiddleware {
  readonly #stats: StatsCollector;

  constructor(options: DownloaderStatsOptions = {}) {
    this.#stats = options.stats ?? NULL_STATS;
  }

  static fromCrawler(crawler: Crawler): DownloaderStats {
    if (!crawler.settings.getBool('DOWNLOADER_STATS')) throw new NotConfigured('DOWNLOADER_STATS is off');
    return new DownloaderStats({ stats: crawler.stats });
  }

  processRequest(request: Request): void {
    this.#stats.inc('downloader/request_count');
    this.#stats.inc(`downloader/request_method_count/${request.method}`);
    this.#stats.inc('downloader/request_bytes', requestSize(request));
  }

  processResponse(_request: Request, response: Response): Response {
    this.#stats.inc('downloader/response_count');
    this.#stats.inc(`downloader/response_status_count/${response.status}`);
    this.#stats.inc('downloader/response_bytes', responseSize(response));
    return response;
  }

  processException(_request: Request, error: Error): void {
    this.#stats.inc('downloader/exception_count');
    this.#stats.inc(`downloader/exception_type_count/${error.name}`);
  }
}
