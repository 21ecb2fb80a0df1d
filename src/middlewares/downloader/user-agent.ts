import type { DownloaderMiddleware } from '../../contracts/components.js';
import type { Crawler } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Spider } from '../../contracts/spider.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import { spiderAttribute } from './spider-attributes.js';

export interface UserAgentOptions {
  /** The User-Agent to send; '' sends none. Default: USER_AGENT's default. */
  userAgent?: string;
}

/**
 * Sets `User-Agent` on requests without one: the spider's `userAgent`
 * attribute when it has one, else USER_AGENT (Scrapy's UserAgentMiddleware).
 */
export class UserAgentMiddleware implements DownloaderMiddleware {
  #userAgent: string;
  readonly #configured: string;
  #openedFor: Spider | undefined;

  constructor(options: UserAgentOptions = {}) {
    this.#configured = this.#userAgent = options.userAgent ?? DEFAULT_SETTINGS.USER_AGENT;
  }

  static fromCrawler(crawler: Crawler): UserAgentMiddleware {
    return new UserAgentMiddleware({ userAgent: crawler.settings.get('USER_AGENT') });
  }

  /** The User-Agent this middleware sends (after the spider has opened, the spider's when it has one). */
  get userAgent(): string {
    return this.#userAgent;
  }

  openSpider(spider: Spider): void {
    this.#openedFor = spider;
    this.#userAgent = spiderAttribute(spider, 'userAgent') ?? this.#configured;
  }

  processRequest(request: Request, spider: Spider): void {
    // Components built by hand may never see openSpider; read the spider on first use instead.
    if (this.#openedFor !== spider) this.openSpider(spider);
    if (this.#userAgent) request.headers.setDefault('User-Agent', this.#userAgent);
  }
}
