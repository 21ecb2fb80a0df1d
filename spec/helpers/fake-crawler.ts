/**
 * A Crawler for components tested alone, without the engine: frozen
 * settings, a real MemoryStatsCollector, a log bus whose events are kept,
 * an event stream fed by emit(), and close() recorded.
 */
import { Subject } from 'rxjs';
import type { Crawler } from '../../src/contracts/crawler.js';
import type { CrawlEvent } from '../../src/contracts/events.js';
import { LogBus, type LogEvent, type LogLevel } from '../../src/log/index.js';
import { Settings, type SettingsInput } from '../../src/settings/index.js';
import { Spider } from '../../src/contracts/spider.js';
import { MemoryStatsCollector, STATS_LOGGER } from '../../src/stats/memory-stats-collector.js';
import { Signals } from '../../src/contracts/signals.js';

/** The time of every log event on a fake crawler's bus, so that no test depends on the clock. */
const LOG_TIME = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

export class TestSpider extends Spider {
  static override name = 'test';
}

/** The log events of one bus, kept in order, with two views for assertions. */
export interface LogRecord {
  readonly logs: LogEvent[];
  /** `[logger, level, message]` of each event, optionally only those of one logger. */
  lines(logger?: string): Array<[string, LogLevel, string]>;
  /** `LEVEL [logger] message` of each event, optionally only those of one logger. */
  textLines(logger?: string): string[];
}

/** Keeps every event logged on `bus` from now on. */
export function recordLogs(bus: LogBus): LogRecord {
  const logs: LogEvent[] = [];
  bus.events$.subscribe((event) => logs.push(event));
  const of = (logger: string | undefined): LogEvent[] => logs.filter((event) => logger === undefined || event.logger === logger);
  return {
    logs,
    lines: (logger) => of(logger).map((event) => [event.logger, event.level, event.message]),
    textLines: (logger) => of(logger).map((event) => `${event.level} [${event.logger}] ${event.message}`),
  };
}

export interface FakeCrawler extends Crawler, LogRecord {
  readonly stats: MemoryStatsCollector;
  /** Reasons passed to close(), in order. */
  readonly closed: string[];
}

/**
 * `settings` are stored at 'cmdline' priority with the source
 * `-s NAME=VALUE`, as if typed on the command line: they override every
 * other layer, and a value a component rejects is reported as
 * `(from -s NAME=VALUE)`, which the error-message tests assert. The spider
 * gets the crawler as its `crawler`, as the engine does.
 */
export function fakeCrawler(settings: SettingsInput = {}, spider: Spider = new TestSpider()): FakeCrawler {
  const values = new Settings();
  for (const [name, value] of Object.entries(settings)) values.set(name, value, 'cmdline', `-s ${name}=${sourceText(value)}`);
  values.freeze();
  const logBus = new LogBus({ now: () => LOG_TIME });
  const events = new Subject<CrawlEvent>();
  const closed: string[] = [];
  const crawler: FakeCrawler = {
    settings: values,
    stats: new MemoryStatsCollector({ logger: logBus.getLogger(STATS_LOGGER) }),
    logBus,
    events$: events.asObservable(),
    spider,
    closed,
    ...recordLogs(logBus),
    emit: (event) => events.next(event),
    close: (reason) => closed.push(reason),
    signals: new Signals(),
    pause: () => undefined,
    resume: () => undefined,
    engine: {
      crawl: (request) => {
        throw new Error(`fakeCrawler: no engine to crawl ${request.toString()}`);
      },
      download: (request) => Promise.reject(new Error(`fakeCrawler: no engine to download ${request.toString()}`)),
    },
  };
  spider.crawler = crawler;
  return crawler;
}

// A setting given as an object would otherwise read `[object Object]` in an error message.
function sourceText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
