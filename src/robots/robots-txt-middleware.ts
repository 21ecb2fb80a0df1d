import type { DownloaderMiddleware } from '../contracts/components.js';
import { IgnoreRequest, NotConfigured } from '../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { Request } from '../http/request.js';
import { defaultLogBus, type Logger } from '../log/index.js';
import { NULL_STATS, type ComponentOptions } from '../middlewares/spider/component-options.js';
import type { Spider } from '../contracts/spider.js';
import { RobotsCache, type DownloadFn } from './robots-cache.js';

export interface RobotsTxtOptions extends ComponentOptions {
  /** The crawl's cache; made from `download` when absent. */
  cache?: RobotsCache;
  /** How robots.txt files are fetched, when no `cache` is given. */
  download?: DownloadFn;
  /** USER_AGENT: the agent matched against robots.txt when the request sets none. Default 'seine'. */
  userAgent?: string;
  /** ROBOTSTXT_USER_AGENT: when set, the agent always matched against robots.txt. */
  robotsUserAgent?: string | null;
}

/**
 * Obeys robots.txt (ROBOTSTXT_OBEY), as Scrapy's RobotsTxtMiddleware: before
 * a request is downloaded, its origin's robots.txt is fetched (once per
 * origin, through the crawl's download path) and a request it forbids is
 * dropped: `Forbidden by robots.txt: <GET url>` at DEBUG,
 * `robotstxt/forbidden`, and an IgnoreRequest. The agent matched is
 * ROBOTSTXT_USER_AGENT, else the request's `User-Agent` header, else
 * USER_AGENT. `meta.dont_obey_robotstxt` (robots.txt requests carry it),
 * data: and file: URLs skip the check.
 *
 * `processRequest` returns undefined for an allowed request once its
 * origin's robots.txt is in, so the engine only awaits while an origin's
 * robots.txt is on its way (or to drop a request).
 */
export class RobotsTxtMiddleware implements DownloaderMiddleware {
  readonly cache: RobotsCache;
  readonly userAgent: string;
  readonly robotsUserAgent: string | null;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;

  constructor(options: RobotsTxtOptions) {
    this.#stats = options.stats ?? NULL_STATS;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.downloadermiddlewares.robotstxt');
    if (options.cache !== undefined) {
      this.cache = options.cache;
    } else if (options.download !== undefined) {
      this.cache = new RobotsCache({ download: options.download, stats: options.stats, logBus: options.logBus });
    } else {
      throw new TypeError('RobotsTxtMiddleware needs a `cache` or a `download` function to fetch robots.txt with');
    }
    this.userAgent = options.userAgent ?? 'seine';
    this.robotsUserAgent = options.robotsUserAgent || null;
  }

  /**
   * `download` is the engine's download path for robots.txt requests; without
   * it, `crawler.download` is used when the crawler has one.
   */
  static fromCrawler(crawler: Crawler, download?: DownloadFn): RobotsTxtMiddleware {
    const { settings } = crawler;
    if (!settings.getBool('ROBOTSTXT_OBEY')) throw new NotConfigured('ROBOTSTXT_OBEY is off');
    const fetch = download ?? crawlerDownload(crawler);
    if (fetch === undefined) {
      throw new TypeError('RobotsTxtMiddleware.fromCrawler(crawler, download) needs the engine\'s download function: pass it, or give the crawler a download(request) method');
    }
    return new RobotsTxtMiddleware({
      download: fetch,
      userAgent: settings.get('USER_AGENT'),
      robotsUserAgent: settings.get('ROBOTSTXT_USER_AGENT'),
      stats: crawler.stats,
      logBus: crawler.logBus,
    });
  }

  /**
   * Returns undefined when `request` may be downloaded now; otherwise a
   * promise that resolves when it may, or rejects with an IgnoreRequest when
   * robots.txt forbids it. It never throws synchronously.
   */
  processRequest(request: Request, spider?: Spider): Promise<void> | undefined {
    if (request.meta.dont_obey_robotstxt) return undefined;
    if (request.url.startsWith('data:') || request.url.startsWith('file:')) return undefined;
    const userAgent = this.userAgentFor(request);
    const now = this.cache.allowedNow(request, userAgent);
    if (now === true) return undefined;
    if (now === false) return Promise.reject(this.#forbid(request, spider));
    return this.cache.allowed(request, userAgent).then((allowed) => {
      if (!allowed) throw this.#forbid(request, spider);
    });
  }

  /**
   * The same check as a boolean, for an engine that asks before download:
   * false (logged and counted as forbidden) when robots.txt forbids `request`.
   */
  async allowed(request: Request, spider?: Spider): Promise<boolean> {
    try {
      await this.processRequest(request, spider);
      return true;
    } catch (error) {
      if (error instanceof IgnoreRequest) return false;
      throw error;
    }
  }

  /** The agent matched against robots.txt for `request`. */
  userAgentFor(request: Request): string {
    return this.robotsUserAgent ?? request.headers.get('User-Agent') ?? this.userAgent;
  }

  /** Logs and counts a forbidden request; returns the error to reject with. */
  #forbid(request: Request, spider: Spider | undefined): IgnoreRequest {
    this.#logger.debug(`Forbidden by robots.txt: ${request.toString()}`, spider === undefined ? undefined : { spider });
    this.#stats.inc('robotstxt/forbidden');
    return new IgnoreRequest('Forbidden by robots.txt', { dropReason: 'robots' });
  }
}

/** The crawl's robots check, or null when ROBOTSTXT_OBEY is off (fits CrawlDefaults.createRobots). */
export function createRobots(crawler: Crawler, download: DownloadFn): RobotsTxtMiddleware | null {
  try {
    return RobotsTxtMiddleware.fromCrawler(crawler, download);
  } catch (error) {
    if (error instanceof NotConfigured) return null;
    throw error;
  }
}

function crawlerDownload(crawler: Crawler): DownloadFn | undefined {
  const download = (crawler as Crawler & { download?: unknown }).download;
  return typeof download === 'function' ? (download.bind(crawler) as DownloadFn) : undefined;
}
