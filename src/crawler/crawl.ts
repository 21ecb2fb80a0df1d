import { Observable, filter, map, share } from 'rxjs';
import type { Item, Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { LogEvent } from '../log/index.js';
import { LogBus } from '../log/index.js';
import type { SpiderClass } from '../contracts/spider.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import { CrawlerImpl, type CrawlerOptions } from './crawler-impl.js';
import type { CrawlEvent } from '../contracts/events.js';

type Signal = { kind: 'event'; event: CrawlEvent } | { kind: 'log'; log: LogEvent };

/** A crawl as streams. Nothing runs until something subscribes; when every subscriber has left, the crawl is cancelled. */
export interface CrawlRun {
  /** Items that came through the item pipeline. */
  readonly items$: Observable<Item>;
  /** Requests as they are scheduled. */
  readonly requests$: Observable<Request>;
  /** Responses as they reach the spider. */
  readonly responses$: Observable<Response>;
  /** The crawl's log events (format them with formatLogLine). */
  readonly logs$: Observable<LogEvent>;
  /** Every crawl event (Scrapy's signals). */
  readonly events$: Observable<CrawlEvent>;
  /** The running (or last) crawl's stats; null before the first subscription. */
  readonly stats: StatsCollector | null;
  /** The crawler of the running (or last) crawl: its settings, stats, signals, the gate (pause/resume), close(). */
  readonly crawler: Crawler | null;
}

/**
 * `crawl(QuotesSpider, { args, settings })`: the crawl starts when the first
 * of its streams is subscribed and ends when its spider closes (the streams
 * complete) or when the last subscriber unsubscribes (in-flight requests are
 * aborted and the spider closes with reason `cancelled`).
 */
export function crawl(spiderClass: SpiderClass, options: CrawlerOptions = {}): CrawlRun {
  let current: CrawlerImpl | null = null;
  const signals$ = new Observable<Signal>((subscriber) => {
    const bus = new LogBus();
    const logs = bus.events$.subscribe((log) => subscriber.next({ kind: 'log', log }));
    let crawler: CrawlerImpl;
    try {
      crawler = new CrawlerImpl(spiderClass, options, bus);
    } catch (error) {
      subscriber.error(error);
      return () => logs.unsubscribe();
    }
    current = crawler;
    const events = crawler.events$.subscribe((event) => subscriber.next({ kind: 'event', event }));
    let finished = false;
    crawler.run().then(
      () => {
        finished = true;
        subscriber.complete();
      },
      (error: unknown) => {
        finished = true;
        subscriber.error(error);
      },
    );
    return () => {
      if (!finished) crawler.cancel('cancelled');
      events.unsubscribe();
      logs.unsubscribe();
    };
  }).pipe(share());

  const events$ = signals$.pipe(
    filter((s): s is { kind: 'event'; event: CrawlEvent } => s.kind === 'event'),
    map((s) => s.event),
  );
  return {
    items$: events$.pipe(
      filter((e): e is Extract<CrawlEvent, { type: 'item_scraped' }> => e.type === 'item_scraped'),
      map((e) => e.item),
    ),
    requests$: events$.pipe(
      filter((e): e is Extract<CrawlEvent, { type: 'request_scheduled' }> => e.type === 'request_scheduled'),
      map((e) => e.request),
    ),
    responses$: events$.pipe(
      filter((e): e is Extract<CrawlEvent, { type: 'response_received' }> => e.type === 'response_received'),
      map((e) => e.response),
    ),
    logs$: signals$.pipe(
      filter((s): s is { kind: 'log'; log: LogEvent } => s.kind === 'log'),
      map((s) => s.log),
    ),
    events$,
    get stats() {
      return current?.stats ?? null;
    },
    get crawler() {
      return current;
    },
  };
}
