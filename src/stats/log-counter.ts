import type { Observable, Subscription } from 'rxjs';
import type { StatsCollector } from '../contracts/crawler.js';
import { LOG_LEVELS, type LogEvent, type LogLevel } from '../log/index.js';

/**
 * Counts a log event in `log_count/<LEVEL>` when it is at `minLevel` or
 * above (Scrapy's LogCounterHandler, installed at LOG_LEVEL: lines LOG_LEVEL
 * hides are not counted). Returns `stats`.
 */
export function applyLogEvent(stats: StatsCollector, event: LogEvent, minLevel: LogLevel = 'DEBUG'): StatsCollector {
  if (LOG_LEVELS[event.level] >= LOG_LEVELS[minLevel]) stats.inc(`log_count/${event.level}`);
  return stats;
}

/** Counts every event of a crawl's log bus until unsubscribed or the bus completes. */
export function countLogEvents(events$: Observable<LogEvent>, stats: StatsCollector, minLevel: LogLevel = 'DEBUG'): Subscription {
  return events$.subscribe((event) => applyLogEvent(stats, event, minLevel));
}
