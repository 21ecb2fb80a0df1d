import { interval, type SchedulerLike, type Subscription } from 'rxjs';
import type { Extension } from '../contracts/components.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import { getLogger, type Logger } from '../log/index.js';
import { settingAtLeast } from '../settings/setting-at-least.js';

/** Scrapy's `scrapy.extensions.logstats` logger. */
export const LOGSTATS_LOGGER = 'seine.extensions.logstats';

/** The two counters LogStats reports. */
export interface LogStatsSample {
  readonly pages: number;
  readonly items: number;
}

/** `response_received_count` and `item_scraped_count`, 0 when unset. */
export function sampleLogStats(stats: Pick<StatsCollector, 'get'>): LogStatsSample {
  return {
    pages: Number(stats.get('response_received_count') ?? 0),
    items: Number(stats.get('item_scraped_count') ?? 0),
  };
}

/**
 * `Crawled 3 pages (at 3 pages/min), scraped 30 items (at 30 items/min)`.
 * Rates are per minute from the change over one nominal interval, truncated
 * as Python's `%d` truncates a float (Scrapy does not measure the actual
 * time between two lines either).
 */
export function logStatsLine(current: LogStatsSample, previous: LogStatsSample, intervalSeconds: number): string {
  const multiplier = 60 / intervalSeconds;
  const pageRate = Math.trunc((current.pages - previous.pages) * multiplier);
  const itemRate = Math.trunc((current.items - previous.items) * multiplier);
  return (
    `Crawled ${Math.trunc(current.pages)} pages (at ${pageRate + 0} pages/min), ` +
    `scraped ${Math.trunc(current.items)} items (at ${itemRate + 0} items/min)`
  );
}

export interface LogStatsOptions {
  readonly stats: Pick<StatsCollector, 'get'>;
  /** LOGSTATS_INTERVAL in seconds; default 60. */
  readonly intervalSeconds?: number;
  /** Default `seine.extensions.logstats` on the default bus. */
  readonly logger?: Logger;
  /** The RxJS scheduler of the timer (a TestScheduler in tests); default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Scrapy's LogStats extension: logs the LogStats line when the spider opens
 * and every LOGSTATS_INTERVAL seconds until it closes.
 */
export class LogStats implements Extension {
  readonly intervalSeconds: number;
  readonly #stats: Pick<StatsCollector, 'get'>;
  readonly #logger: Logger;
  readonly #scheduler: SchedulerLike | undefined;
  #previous: LogStatsSample = { pages: 0, items: 0 };
  #timer: Subscription | undefined;

  constructor(options: LogStatsOptions) {
    this.#stats = options.stats;
    this.intervalSeconds = options.intervalSeconds ?? 60;
    if (!(this.intervalSeconds > 0)) throw new RangeError(`LogStats intervalSeconds must be a number > 0, got ${this.intervalSeconds}`);
    this.#logger = options.logger ?? getLogger(LOGSTATS_LOGGER);
    this.#scheduler = options.scheduler;
  }

  /** Reads LOGSTATS_INTERVAL; NotConfigured when it is 0. */
  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus'>, options: Pick<LogStatsOptions, 'scheduler'> = {}): LogStats {
    const seconds = settingAtLeast(crawler.settings, 'LOGSTATS_INTERVAL', crawler.settings.getFloat('LOGSTATS_INTERVAL'), 0,
      'it is the number of seconds between two LogStats lines; use 0 to turn them off');
    if (seconds === 0) throw new NotConfigured('LOGSTATS_INTERVAL is 0');
    return new LogStats({ stats: crawler.stats, intervalSeconds: seconds, logger: crawler.logBus.getLogger(LOGSTATS_LOGGER), ...options });
  }

  /** Logs a line now and then every interval; a second call while running does nothing. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#previous = { pages: 0, items: 0 };
    this.log();
    this.#timer = interval(this.intervalSeconds * 1000, this.#scheduler).subscribe(() => this.log());
  }

  stop(): void {
    this.#timer?.unsubscribe();
    this.#timer = undefined;
  }

  /** Logs one line with the rates since the previous one. */
  log(): void {
    const current = sampleLogStats(this.#stats);
    this.#logger.info(logStatsLine(current, this.#previous, this.intervalSeconds));
    this.#previous = current;
  }

  openSpider(): void {
    this.start();
  }

  closeSpider(): void {
    this.stop();
  }
}
