import { Subject } from 'rxjs';
import type { Crawler, StatsCollector } from '../../../src/core/crawler.js';
import type { CrawlEvent } from '../../../src/core/events.js';
import { LogBus, type LogEvent, type LogLevel } from '../../../src/log/index.js';
import { Settings, type SettingsInput } from '../../../src/settings/index.js';
import { Spider } from '../../../src/spider/spider.js';

/** A dictionary of counters and values, as Scrapy's MemoryStatsCollector. */
export class MemoryStats implements StatsCollector {
  readonly values: Record<string, unknown> = {};

  get(key: string): unknown {
    return this.values[key];
  }

  set(key: string, value: unknown): void {
    this.values[key] = value;
  }

  inc(key: string, by = 1): void {
    this.values[key] = ((this.values[key] as number | undefined) ?? 0) + by;
  }

  max(key: string, value: number): void {
    const old = this.values[key] as number | undefined;
    this.values[key] = old === undefined ? value : Math.max(old, value);
  }

  min(key: string, value: number): void {
    const old = this.values[key] as number | undefined;
    this.values[key] = old === undefined ? value : Math.min(old, value);
  }

  getAll(): Record<string, unknown> {
    return { ...this.values };
  }
}

export class TestSpider extends Spider {
  static override name = 'test';
}

/** A Crawler for components tested alone: real Settings, in-memory stats, and a log bus whose events are kept. */
export interface FakeCrawler extends Crawler {
  readonly stats: MemoryStats;
  /** Every log event emitted on the crawler's bus, in order. */
  readonly logs: LogEvent[];
  /** Every CrawlEvent passed to emit(). */
  readonly emitted: CrawlEvent[];
  /** Reasons passed to close(). */
  readonly closed: string[];
  /** `[logger, level, message]` of each log event, optionally only those of one logger. */
  lines(logger?: string): Array<[string, LogLevel, string]>;
}

export function fakeCrawler(settings: SettingsInput = {}, spider: Spider = new TestSpider()): FakeCrawler {
  const logBus = new LogBus({ now: () => new Date(2024, 0, 2, 3, 4, 5) });
  const logs: LogEvent[] = [];
  logBus.events$.subscribe((event) => logs.push(event));
  const events = new Subject<CrawlEvent>();
  const emitted: CrawlEvent[] = [];
  const closed: string[] = [];
  const frozen = new Settings(settings, 'project');
  frozen.freeze();
  const crawler: FakeCrawler = {
    settings: frozen,
    stats: new MemoryStats(),
    logBus,
    events$: events.asObservable(),
    spider,
    logs,
    emitted,
    closed,
    emit(event) {
      emitted.push(event);
      events.next(event);
    },
    close(reason) {
      closed.push(reason);
    },
    lines(logger) {
      return logs.filter((event) => logger === undefined || event.logger === logger).map((event) => [event.logger, event.level, event.message]);
    },
  };
  spider.crawler = crawler;
  return crawler;
}
