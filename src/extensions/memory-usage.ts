import type { Subscription } from 'rxjs';
import type { Extension } from '../contracts/components.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import { getLogger, type Logger } from '../log/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { settingAtLeast } from '../settings/setting-at-least.js';

/** Scrapy's `scrapy.extensions.memusage` logger. */
export const MEMUSAGE_LOGGER = 'seine.extensions.memusage';

const MIB = 1024 * 1024;

/** How often the peak is read against MEMUSAGE_LIMIT_MB and MEMUSAGE_WARNING_MB. */
const CHECK_EVERY_MS = 1000;

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
  /** Milliseconds between two reads against the limit and the warning level; default 1000. */
  readonly checkEveryMs?: number;
}

/**
 * Scrapy's MemoryUsage extension. When the engine starts it records
 * `memusage/startup`; then, every second, it reads the process's peak RSS
 * (the kernel's high-water mark, so a spike between two reads is not
 * missed): `memusage/max` keeps it; above MEMUSAGE_LIMIT_MB it logs an
 * error, sets `memusage/limit_reached` and closes the spider with
 * `memusage_exceeded`; above MEMUSAGE_WARNING_MB it warns once and sets
 * `memusage/warning_reached`. Every MEMUSAGE_CHECK_INTERVAL_SECONDS, below
 * the limit, it logs the peak at INFO (Scrapy's cadence). When the spider
 * closes, `memusage/max` is read a last time, so it is the crawl's real
 * peak. Scrapy checks only every MEMUSAGE_CHECK_INTERVAL_SECONDS (60 s):
 * reading the peak costs one getrusage call, so seine checks each second.
 * The timers are unref'd, so they never keep a finished crawl's process
 * alive, and cleared when the spider closes.
 */
export class MemoryUsage implements Extension {
  readonly #options: MemoryUsageOptions;
  readonly #logger: Logger;
  readonly #measure: () => number;
  readonly intervalSeconds: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #reportTimer: ReturnType<typeof setInterval> | undefined;
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
  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus' | 'events$' | 'close'>, options: Pick<MemoryUsageOptions, 'measure' | 'checkEveryMs'> = {}): MemoryUsage {
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

  /** Records `memusage/startup`, checks now, then every second (and reports every interval); a second call does nothing. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#options.stats.set('memusage/startup', this.#measure());
    this.#timer = setInterval(() => this.check(), this.#options.checkEveryMs ?? CHECK_EVERY_MS);
    this.#timer.unref();
    this.#reportTimer = setInterval(() => this.report(), this.intervalSeconds * 1000);
    this.#reportTimer.unref();
    this.check();
    this.report();
  }

  /** Reads the peak a last time (the crawl's real `memusage/max`), clears the timers and stops listening. */
  stop(): void {
    if (this.#timer !== undefined) {
      clearInterval(this.#timer);
      clearInterval(this.#reportTimer);
      this.#timer = undefined;
      this.#options.stats.max('memusage/max', this.#measure());
    }
    this.#events?.unsubscribe();
  }

  /** Scrapy's three loops, in their order: update the peak, check the limit, check the warning level. */
  check(): void {
    const { stats, limitBytes = 0, warningBytes = 0 } = this.#options;
    const peak = this.#measure();
    stats.max('memusage/max', peak);
    if (limitBytes > 0 && !this.#limitReached) this.#checkLimit(limitBytes, peak);
    if (warningBytes > 0 && !this.#warned) this.#checkWarning(warningBytes, peak);
  }

  /** Scrapy's `Peak memory usage is N MiB` at each interval while a limit is set and not reached. */
  report(): void {
    const { limitBytes = 0 } = this.#options;
    if (limitBytes > 0 && !this.#limitReached) this.#logger.info(`Peak memory usage is ${Math.trunc(this.#measure() / MIB)}MiB`);
  }

  #checkLimit(limitBytes: number, peak: number): void {
    if (peak <= limitBytes) return;
    // Once is enough: the spider is already closing, and Scrapy's next round would only repeat the line.
    this.#limitReached = true;
    this.#options.stats.set('memusage/limit_reached', 1);
    this.#logger.error(`Memory usage exceeded ${Math.trunc(limitBytes / MIB)}MiB. Shutting down seine...`);
    this.#options.close('memusage_exceeded');
  }

  #checkWarning(warningBytes: number, peak: number): void {
    if (peak <= warningBytes) return;
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
