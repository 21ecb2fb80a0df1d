import type { Crawler, StatsCollector } from '../core/crawler.js';
import type { Request } from '../http/request.js';
import { getLogger, type Logger } from '../log/index.js';
import { DownloaderAwarePriorityQueue } from './downloader-aware-queue.js';
import { FingerprintDupeFilter, type DupeFilter, type Fingerprint } from './dupe-filter.js';
import { MemoryPriorityQueue } from './memory-priority-queue.js';
import { priorityQueueSetting, queueOrderSetting } from './queue-settings.js';
import type { RequestQueue } from './request-queue.js';

/** Scrapy's dupefilter logger, `scrapy.dupefilters`. */
export const DUPEFILTER_LOGGER = 'seine.dupefilters';

export interface SchedulerOptions {
  /** Where requests wait; default an in-memory LIFO priority queue (Scrapy's default). */
  readonly queue?: RequestQueue;
  /** Drops requests seen before (unless `dontFilter`); none: nothing is filtered. */
  readonly dupeFilter?: DupeFilter;
  /** Receives `scheduler/*` and `dupefilter/filtered`. */
  readonly stats?: StatsCollector;
  /** Logs filtered duplicates; default `seine.dupefilters` on the default bus. */
  readonly logger?: Logger;
  /** DUPEFILTER_DEBUG: log every filtered duplicate, not only the first. */
  readonly debug?: boolean;
}

/** What `Scheduler.fromCrawler` needs besides the crawler. */
export interface SchedulerDependencies {
  /** The request fingerprint (src/http/fingerprint.ts), for the duplicate filter. */
  readonly fingerprint: Fingerprint;
  /** The download slots, for SCHEDULER_PRIORITY_QUEUE = DownloaderAwarePriorityQueue. */
  readonly slots?: { slotKey(request: Request): string; activeIn(slot: string): number };
}

/**
 * Scrapy's default scheduler: filters duplicates, stores requests in a
 * priority queue and hands them back in priority order, counting
 * `scheduler/enqueued[/memory]`, `scheduler/dequeued[/memory]` and
 * `dupefilter/filtered`.
 */
export class Scheduler {
  readonly queue: RequestQueue;
  readonly dupeFilter: DupeFilter | null;
  readonly #stats: StatsCollector | null;
  readonly #logger: Logger;
  readonly #debug: boolean;
  #logDuplicates = true;
  // Built once: the keys are used on every push and pop.
  readonly #enqueuedKind: string;
  readonly #dequeuedKind: string;

  constructor(options: SchedulerOptions = {}) {
    this.queue = options.queue ?? new MemoryPriorityQueue();
    this.dupeFilter = options.dupeFilter ?? null;
    this.#stats = options.stats ?? null;
    this.#logger = options.logger ?? getLogger(DUPEFILTER_LOGGER);
    this.#debug = options.debug ?? false;
    const kind = this.queue.kind ?? 'memory';
    this.#enqueuedKind = `scheduler/enqueued/${kind}`;
    this.#dequeuedKind = `scheduler/dequeued/${kind}`;
  }

  /**
   * Reads SCHEDULER_MEMORY_QUEUE, SCHEDULER_PRIORITY_QUEUE and
   * DUPEFILTER_DEBUG. The fingerprint function comes from the caller until
   * the Crawler carries one.
   */
  static fromCrawler(crawler: Crawler, dependencies: SchedulerDependencies): Scheduler {
    const { settings } = crawler;
    const order = queueOrderSetting(settings);
    let queue: RequestQueue;
    if (priorityQueueSetting(settings) === 'downloader-aware') {
      const slots = dependencies.slots;
      if (slots === undefined) {
        throw new TypeError('Scheduler.fromCrawler: SCHEDULER_PRIORITY_QUEUE = DownloaderAwarePriorityQueue needs the download slots (dependencies.slots)');
      }
      queue = new DownloaderAwarePriorityQueue({
        order,
        slotKey: (request) => slots.slotKey(request),
        activeIn: (slot) => slots.activeIn(slot),
      });
    } else {
      queue = new MemoryPriorityQueue({ order });
    }
    return new Scheduler({
      queue,
      dupeFilter: new FingerprintDupeFilter(dependencies.fingerprint),
      stats: crawler.stats,
      logger: crawler.logBus.getLogger(DUPEFILTER_LOGGER),
      debug: settings.getBool('DUPEFILTER_DEBUG'),
    });
  }

  /** Stores `request`; false when it is a duplicate (logged once, counted in `dupefilter/filtered`). */
  enqueue(request: Request): boolean {
    if (!request.dontFilter && this.dupeFilter !== null && this.dupeFilter.seen(request)) {
      this.#logDuplicate(request);
      return false;
    }
    this.queue.push(request);
    if (this.#stats !== null) {
      this.#stats.inc(this.#enqueuedKind);
      this.#stats.inc('scheduler/enqueued');
    }
    return true;
  }

  /** The next request by priority, or undefined when none is queued. */
  next(): Request | undefined {
    const request = this.queue.pop();
    if (request !== undefined && this.#stats !== null) {
      this.#stats.inc(this.#dequeuedKind);
      this.#stats.inc('scheduler/dequeued');
    }
    return request;
  }

  hasPending(): boolean {
    return this.queue.size > 0;
  }

  /** How many requests are queued. */
  get size(): number {
    return this.queue.size;
  }

  /** Closes the queue and the duplicate filter (what they hold is released or persisted). */
  async close(reason: string): Promise<void> {
    await this.queue.close?.();
    await this.dupeFilter?.close?.(reason);
  }

  #logDuplicate(request: Request): void {
    if (this.#debug) {
      this.#logger.debug(`Filtered duplicate request: ${request.toString()} (referer: ${request.headers.get('Referer') ?? 'None'})`);
    } else if (this.#logDuplicates) {
      this.#logger.debug(
        `Filtered duplicate request: ${request.toString()} - no more duplicates will be shown (see DUPEFILTER_DEBUG to show all duplicates)`,
      );
      this.#logDuplicates = false;
    }
    this.#stats?.inc('dupefilter/filtered');
  }
}
