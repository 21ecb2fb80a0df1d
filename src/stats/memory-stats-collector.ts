import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import { getLogger, type Logger } from '../log/index.js';
import { formatStatsDump } from './stats-dump.js';

/** Scrapy's `scrapy.statscollectors` logger. */
export const STATS_LOGGER = 'seine.statscollectors';

export interface MemoryStatsCollectorOptions {
  /** STATS_DUMP: log every stat when the spider closes; default true. */
  readonly dump?: boolean;
  /** Where the dump is logged; default `seine.statscollectors` on the default bus. */
  readonly logger?: Logger;
}

/**
 * Scrapy's (Memory)StatsCollector: a flat map of stat name → value,
 * dumped at close when STATS_DUMP is on. Counters are on the per-request
 * hot path, so values live in a Map rather than a plain object.
 */
export class MemoryStatsCollector implements StatsCollector {
  readonly #values = new Map<string, unknown>();
  readonly #dump: boolean;
  readonly #logger: Logger;

  constructor(options: MemoryStatsCollectorOptions = {}) {
    this.#dump = options.dump ?? true;
    this.#logger = options.logger ?? getLogger(STATS_LOGGER);
  }

  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'logBus'>): MemoryStatsCollector {
    return new MemoryStatsCollector({
      dump: crawler.settings.getBool('STATS_DUMP'),
      logger: crawler.logBus.getLogger(STATS_LOGGER),
    });
  }

  get(key: string): unknown {
    return this.#values.get(key);
  }

  set(key: string, value: unknown): void {
    this.#values.set(key, value);
  }

  /** Adds `by` (default 1) to a counter that starts at 0, as Scrapy's inc_value. */
  inc(key: string, by = 1): void {
    this.#values.set(key, ((this.#values.get(key) as number | undefined) ?? 0) + by);
  }

  /** Keeps the larger of the stored value and `value`; stores `value` when unset. */
  max(key: string, value: number): void {
    const current = this.#values.get(key) as number | undefined;
    this.#values.set(key, current === undefined ? value : Math.max(current, value));
  }

  /** Keeps the smaller of the stored value and `value`; stores `value` when unset. */
  min(key: string, value: number): void {
    const current = this.#values.get(key) as number | undefined;
    this.#values.set(key, current === undefined ? value : Math.min(current, value));
  }

  /** A snapshot: later changes to the collector do not show in it. */
  getAll(): Record<string, unknown> {
    return Object.fromEntries(this.#values);
  }

  clear(): void {
    this.#values.clear();
  }

  /** Called by the engine after `spider_closed`: logs `Dumping seine stats:` and every stat when STATS_DUMP is on. */
  closeSpider(): void {
    if (this.#dump) this.#logger.info(formatStatsDump(this.getAll()));
  }
}
