import type { Subscription } from 'rxjs';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { CrawlEvent } from '../contracts/events.js';
import { applyEvent } from '../stats/event-stats.js';

export interface CoreStatsOptions {
  readonly stats: StatsCollector;
  /** The clock for `start_time` / `finish_time`; default the system clock. */
  readonly clock?: () => Date;
}

/**
 * Scrapy's CoreStats extension: `start_time`, `finish_time`,
 * `finish_reason`, `elapsed_time_seconds`, `item_scraped_count`,
 * `item_dropped_count`, `item_dropped_reasons_count/<Name>`,
 * `response_received_count` and `spider_exceptions/<Name>`, from the
 * crawl's events (the reducer is `applyEvent` in src/stats). It has no
 * openSpider/closeSpider hooks: the events carry everything, and the
 * spider_closed event arrives after the hooks have run.
 */
export class CoreStats {
  readonly #stats: StatsCollector;
  readonly #clock: (() => Date) | undefined;
  #subscription: Subscription | undefined;

  constructor(options: CoreStatsOptions) {
    this.#stats = options.stats;
    this.#clock = options.clock;
  }

  /** Counts the crawler's events from now until `spider_closed`. */
  static fromCrawler(crawler: Pick<Crawler, 'stats' | 'events$'>): CoreStats {
    const extension = new CoreStats({ stats: crawler.stats });
    extension.#subscription = crawler.events$.subscribe((event) => extension.handle(event));
    return extension;
  }

  handle(event: CrawlEvent): void {
    applyEvent(this.#stats, event, this.#clock);
    if (event.type === 'spider_closed') this.#subscription?.unsubscribe();
  }
}
