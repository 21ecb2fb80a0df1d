import type { Subscription } from 'rxjs';
import type { Extension } from '../contracts/components.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import { getLogger, type Logger } from '../log/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { settingAtLeast } from '../throttle/setting-range.js';

/** Scrapy's `scrapy.extensions.memusage` logger. */
export const MEMUSAGE_LOGGER = 'seine.extensions.memusage';

const MIB = 1024 * 1024;

/**
 * The process's peak resident set size in bytes, what Scrapy reads from
 * `getrusage().ru_maxrss`. Node reports maxRSS in kilobytes on every
 * platform; the current RSS is taken too, because maxRSS is sampled by the
 * kernel and can trail a fresh allocation.
 */
export function peakRssBytes(): number {
  return Math.max(process.resourceUsage().maxRSS * 1024, process.memoryUsage().rss);
}

export interface MemoryUsageOptions {
  readonly stats: Pick<StatsCollector, 'set' | 'max'>;
  /** MEMUSAGE_LIMIT_MB in bytes; 0 or absent: no limit. */
  readonly limitBytes?: number;
  /** MEMUSAGE_WARNING_MB in bytes; 0 or absent: no warning. */
  readonly warningBytes?: number;
  /** MEMUSAGE_CHECK_INTERVAL_SECONDS; default 60. */
  readonly intervalSeconds?: number;
  /** Closes the crawl (`crawler.close`), with reason `memusage_exceeded`. */
  readonly close: (reason: string) => void;
  /** Default `seine.extensions.memusage` on the default bus. */
  readonly logger?: Logger;
  /** Measures the peak memory in bytes; default peakRssBytes. */
  readonly measure?: () => number;
}

/**
 * Scrapy's MemoryUsage extension. When the engine starts it records
 * `memusage/startup`, then checks now and every MEMUSAGE_CHECK_INTERVAL_SECONDS:
 * `memusage/max` keeps the peak; above MEMUSAGE_LIMIT_MB it logs an error,
 * sets `memusage/limit_reached` and closes the spider with
 * `memusage_exceeded` (below it, each check logs the peak at INFO); above
 * MEMUSAGE_WARNING_MB it warns once and sets `memusage/warning_reached`.
 * The timer is unref'd, so it never keeps a finished crawl's process alive,
 * and cleared when the spider closes.
 */
export class MemoryUsage implements Extension {
  readonly #options: MemoryUsageOptions;
  readonly #logger: Logger;
  readonly #measure: () => number;
  readonly intervalSeconds: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #events: Subscription | undefined;
  #warned = false;
  #limitReached = false;

  constructor(options: MemoryUsageOptions) {
    this.#options = options;
    this.#logger = options.logger ?? getLogger(MEMUSAGE_LOGGER);
    this.#measure = options.measure ?? peakRssBytes;
    this.intervalSeconds = options.intervalSeconds ?? 60;
    if (!(this.intervalSeconds > 0)) throw new RangeError(`MemoryUsage intervalSeconds must be a number > 0, got ${this.intervalSeconds}`);
  }

  /** Reads MEMUSAGE_*; NotConfigured when MEMUSAGE_ENABLED is off. Starts on `engine_started`. */
  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus' | 'events$' | 'close'>, options: Pick<MemoryUsageOptions, 'measure'> = {}): MemoryUsage {
    const { settings } = crawler;
    if (!settings.getBool('MEMUSAGE_ENABLED')) throw new NotConfigured('MEMUSAGE_ENABLED is off');
    const off = 'use 0 to turn it off';
    const limitMb = settingAtLeast(settings, 'MEMUSAGE_LIMIT_MB', settings.getInt('MEMUSAGE_LIMIT_MB'), 0, off);
    const warningMb = settingAtLeast(settings, 'MEMUSAGE_WARNING_MB', settings.getInt('MEMUSAGE_WARNING_MB'), 0, off);
    const intervalSeconds = settings.getFloat('MEMUSAGE_CHECK_INTERVAL_SECONDS');
    if (!(intervalSeconds > 0)) {
      const source = settings.getSource('MEMUSAGE_CHECK_INTERVAL_SECONDS');
      throw new SettingsError(
        `Setting MEMUSAGE_CHECK_INTERVAL_SECONDS must be greater than 0, got ${intervalSeconds}${source === undefined ? '' : ` (from ${source})`}: ` +
          'it is the number of seconds between two memory checks; set MEMUSAGE_ENABLED to false to turn them off',
      );
    }
    const extension = new MemoryUsage({
      stats: crawler.stats,
      limitBytes: limitMb * MIB,
      warningBytes: warningMb * MIB,
      intervalSeconds,
      close: (reason) => crawler.close(reason),
      logger: crawler.logBus.getLogger(MEMUSAGE_LOGGER),
      ...options,
    });
    extension.#events = crawler.events$.subscribe((event) => {
      if (event.type === 'engine_started') extension.start();
      else if (event.type === 'spider_closed' || event.type === 'engine_stopped') extension.stop();
    });
    return extension;
  }

  /** Records `memusage/startup`, checks now and then every interval; a second call does nothing. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#options.stats.set('memusage/startup', this.#measure());
    this.#timer = setInterval(() => this.check(), this.intervalSeconds * 1000);
    this.#timer.unref();
    this.check();
  }

  /** Clears the timer and stops listening; the checks end here. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#events?.unsubscribe();
  }

  /** One round of Scrapy's three loops, in their order: update the peak, check the limit, check the warning level. */
  check(): void {
    const { stats, limitBytes = 0, warningBytes = 0 } = this.#options;
    stats.max('memusage/max', this.#measure());
    if (limitBytes > 0 && !this.#limitReached) this.#checkLimit(limitBytes);
    if (warningBytes > 0 && !this.#warned) this.#checkWarning(warningBytes);
  }

  #checkLimit(limitBytes: number): void {
    const peak = this.#measure();
    if (peak > limitBytes) {
      // Once is enough: the spider is already closing, and Scrapy's next round would only repeat the line.
      this.#limitReached = true;
      this.#options.stats.set('memusage/limit_reached', 1);
      this.#logger.error(`Memory usage exceeded ${Math.trunc(limitBytes / MIB)}MiB. Shutting down seine...`);
      this.#options.close('memusage_exceeded');
    } else {
      this.#logger.info(`Peak memory usage is ${Math.trunc(peak / MIB)}MiB`);
    }
  }

  #checkWarning(warningBytes: number): void {
    if (this.#measure() <= warningBytes) return;
    this.#warned = true;
    this.#options.stats.set('memusage/warning_reached', 1);
    this.#logger.warning(`Memory usage reached ${Math.trunc(warningBytes / MIB)}MiB`);
  }

  openSpider(): void {
    // The engine emits engine_started before the hooks run; this covers an extension built without the event stream.
    this.start();
  }

  closeSpider(): void {
    this.stop();
  }
}
