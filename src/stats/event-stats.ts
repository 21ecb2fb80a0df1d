/**
 * Stats as a reducer over crawl events: the keys Scrapy's CoreStats
 * extension keeps, plus `spider_exceptions/<Name>` (Scrapy's scraper counts
 * that one).
 */
import type { StatsCollector } from '../contracts/crawler.js';
import type { CrawlEvent, DropReason } from '../contracts/events.js';

const DROPPED_KEYS: Readonly<Record<DropReason, string>> = {
  duplicate: 'request_dropped/duplicate',
  offsite: 'request_dropped/offsite',
  robots: 'request_dropped/robots',
  closing: 'request_dropped/closing',
  ignored: 'request_dropped/ignored',
  error: 'request_dropped/error',
};

/** The class name Python would print for an exception (`exception.__class__.__name__`). */
export function errorClassName(error: Error): string {
  const name = (error.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name !== '' ? name : error.name;
}

const systemClock = (): Date => new Date();

/**
 * Applies one event to `stats` and returns `stats` (so it can seed a
 * `reduce`). `clock` is read only for `spider_opened` and `spider_closed`.
 */
export function applyEvent(stats: StatsCollector, event: CrawlEvent, clock: () => Date = systemClock): StatsCollector {
  switch (event.type) {
    case 'spider_opened':
      stats.set('start_time', clock());
      break;
    case 'spider_closed': {
      const finish = clock();
      const start = stats.get('start_time');
      if (start instanceof Date) stats.set('elapsed_time_seconds', (finish.getTime() - start.getTime()) / 1000);
      stats.set('finish_time', finish);
      stats.set('finish_reason', event.reason);
      break;
    }
    case 'item_scraped':
      stats.inc('item_scraped_count');
      break;
    case 'item_dropped':
      stats.inc('item_dropped_count');
      stats.inc(`item_dropped_reasons_count/${errorClassName(event.error)}`);
      break;
    case 'response_received':
      stats.inc('response_received_count');
      break;
    case 'spider_error':
      stats.inc(`spider_exceptions/${errorClassName(event.error)}`);
      break;
    case 'engine_error':
      stats.inc(`engine_errors/${event.stage}`);
      break;
    case 'request_dropped':
      // Most links a crawl finds are duplicates: the key is not built per drop.
      stats.inc(DROPPED_KEYS[event.reason]);
      break;
    default:
      break;
  }
  return stats;
}
