import { Subject } from 'rxjs';
import type { Crawler } from '../../src/core/crawler.js';
import type { CrawlEvent } from '../../src/core/events.js';
import { LogBus, type LogEvent } from '../../src/log/index.js';
import { Settings } from '../../src/settings/index.js';
import { Spider } from '../../src/spider/spider.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';

export const LOG_TIME = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

export interface FakeCrawler {
  readonly crawler: Crawler;
  readonly stats: MemoryStatsCollector;
  /** Reasons passed to crawler.close(), in order. */
  readonly closed: string[];
  /** Every log event of the crawler's bus. */
  readonly logs: LogEvent[];
}

/**
 * A Crawler for components' fromCrawler(): settings given as if by
 * `-s NAME=VALUE`, a real stats collector and log bus, events through a
 * Subject, and close() recorded.
 */
export function fakeCrawler(settings: Record<string, unknown> = {}, spider: Spider = new Spider()): FakeCrawler {
  const values = new Settings();
  for (const [name, value] of Object.entries(settings)) values.set(name, value, 'cmdline', `-s ${name}=${String(value)}`);
  values.freeze();
  const events = new Subject<CrawlEvent>();
  const logBus = new LogBus({ now: () => LOG_TIME });
  const logs: LogEvent[] = [];
  logBus.events$.subscribe((event) => logs.push(event));
  const stats = new MemoryStatsCollector({ logger: logBus.getLogger('seine.statscollectors') });
  const closed: string[] = [];
  const crawler: Crawler = {
    settings: values,
    stats,
    logBus,
    events$: events.asObservable(),
    spider,
    emit: (event) => events.next(event),
    close: (reason) => closed.push(reason),
  };
  return { crawler, stats, closed, logs };
}
