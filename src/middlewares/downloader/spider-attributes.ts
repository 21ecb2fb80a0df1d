import type { Spider } from '../../contracts/spider.js';

/**
 * The spider attributes the downloader middlewares read, Scrapy's in
 * camelCase (`user_agent` → `userAgent`). A spider declares the ones it uses
 * (`userAgent = 'mybot'`, `httpUser = 'me'`); they are read when the spider
 * opens, so values set from `-a` arguments count too.
 */
export interface DownloaderSpiderAttributes {
  /** Wins over USER_AGENT. */
  userAgent?: string | null;
  /** Basic auth user and password for HttpAuthMiddleware. */
  httpUser?: string;
  httpPass?: string;
  /** The domain (and its subdomains) credentials are sent to; null = every domain; unset = the first request's domain. */
  httpAuthDomain?: string | null;
  /** Seconds; wins over DOWNLOAD_TIMEOUT. */
  downloadTimeout?: number;
  /** Statuses the spider handles itself: RedirectMiddleware leaves these responses alone. */
  handleHttpstatusList?: number[];
}

/** The spider's value of `name`, or undefined when it has none (a declared field without a value counts as none). */
export function spiderAttribute<K extends keyof DownloaderSpiderAttributes>(spider: Spider, name: K): DownloaderSpiderAttributes[K] | undefined {
  return (spider as Spider & DownloaderSpiderAttributes)[name];
}
