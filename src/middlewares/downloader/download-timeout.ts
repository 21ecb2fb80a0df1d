import type { DownloaderMiddleware } from '../../contracts/components.js';
import type { Crawler } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Spider } from '../../contracts/spider.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import { spiderAttribute } from './spider-attributes.js';

export interface DownloadTimeoutOptions {
  /** Seconds; 0 leaves requests without `meta.download_timeout`. Default: DOWNLOAD_TIMEOUT's default (180). */
  timeout?: number;
}

/**
 * Sets `meta.download_timeout` (seconds) on requests that have none: the
 * spider's `downloadTimeout` attribute when it has one, else
 * DOWNLOAD_TIMEOUT (Scrapy's DownloadTimeoutMiddleware). The downloader
 * reads it.
 */
export class DownloadTimeoutMiddleware implements DownloaderMiddleware {
  #timeout: number;
  readonly #configured: number;
  #openedFor: Spider | undefined;

  constructor(options: DownloadTimeoutOptions = {}) {
    this.#configured = this.#timeout = options.timeout ?? DEFAULT_SETTINGS.DOWNLOAD_TIMEOUT;
  }

  static fromCrawler(crawler: Crawler): DownloadTimeoutMiddleware {
    return new DownloadTimeoutMiddleware({ timeout: crawler.settings.getFloat('DOWNLOAD_TIMEOUT') });
  }

  get timeout(): number {
    return this.#timeout;
  }

  openSpider(spider: Spider): void {
    this.#openedFor = spider;
    this.#timeout = spiderAttribute(spider, 'downloadTimeout') ?? this.#configured;
  }

  processRequest(request: Request, spider: Spider): void {
    if (this.#openedFor !== spider) this.openSpider(spider);
    if (this.#timeout && !('download_timeout' in request.meta)) request.meta.download_timeout = this.#timeout;
  }
}
