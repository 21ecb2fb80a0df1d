/**
 * What the spider middleware and robots tests need of a crawl: stats that
 * keep counts, a log bus whose lines are collected, an event stream, and a
 * Crawler built from settings, without the engine.
 */
import { Subject } from 'rxjs';
import type { SpiderOutput } from '../../../src/core/components.js';
import type { Crawler, StatsCollector } from '../../../src/core/crawler.js';
import type { CrawlEvent } from '../../../src/core/events.js';
import { Request } from '../../../src/http/request.js';
import { Response, type ResponseOptions } from '../../../src/http/response.js';
import { LogBus } from '../../../src/log/index.js';
import { Settings } from '../../../src/settings/index.js';
import { Spider } from '../../../src/spider/spider.js';

export class MemoryStats implements StatsCollector {
  readonly values: Record<string, unknown> = {};
  get(key: string): unknown {
    return this.values[key];
  }
  set(key: string, value: unknown): void {
    this.values[key] = value;
  }
  inc(key: string, by = 1): void {
    this.values[key] = (Number(this.values[key]) || 0) + by;
  }
  max(key: string, value: number): void {
    const current = this.values[key];
    this.values[key] = typeof current === 'number' ? Math.max(current, value) : value;
  }
  min(key: string, value: number): void {
    const current = this.values[key];
    this.values[key] = typeof current === 'number' ? Math.min(current, value) : value;
  }
  getAll(): Record<string, unknown> {
    return { ...this.values };
  }
}

/** `LEVEL [logger] message` for each line logged on `bus` from now on. */
export function collectLogs(bus: LogBus): string[] {
  const lines: string[] = [];
  bus.events$.subscribe((event) => lines.push(`${event.level} [${event.logger}] ${event.message}`));
  return lines;
}

export class TestSpider extends Spider {
  static override name = 'test';
}

export interface FakeCrawler extends Crawler {
  readonly stats: MemoryStats;
  readonly events: Subject<CrawlEvent>;
  readonly logs: string[];
}

export function fakeCrawler(settings: Record<string, unknown> = {}, spider: Spider = new TestSpider()): FakeCrawler {
  const logBus = new LogBus();
  const events = new Subject<CrawlEvent>();
  const crawler: FakeCrawler = {
    settings: new Settings(settings),
    stats: new MemoryStats(),
    logBus,
    events$: events.asObservable(),
    events,
    logs: collectLogs(logBus),
    spider,
    emit: (event) => events.next(event),
    close: () => undefined,
  };
  spider.crawler = crawler;
  return crawler;
}

export async function* outputs(...items: SpiderOutput[]): AsyncIterable<SpiderOutput> {
  yield* items;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** A response to `url` for a request with `meta`. */
export function responseFor(url: string, options: Partial<ResponseOptions> & { meta?: Record<string, unknown> } = {}): Response {
  const { meta, ...rest } = options;
  return new Response({ url, request: new Request(url, { meta }), ...rest });
}
