import { join } from 'node:path';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { AcknowledgesRequests, EngineScheduler, JournaledScheduler, KeepsQueueAtClose, TracksFeeds } from '../contracts/scheduler.js';
import type { Request } from '../http/request.js';
import { getLogger, type Logger } from '../log/index.js';
import { DownloaderAwarePriorityQueue } from './downloader-aware-queue.js';
import { FingerprintDupeFilter, type DupeFilter, type Fingerprint } from './dupe-filter.js';
import { MemoryPriorityQueue } from './memory-priority-queue.js';
import { diskQueueOrderSetting, priorityQueueSetting, queueOrderSetting } from './queue-settings.js';
import { DiskPriorityQueue } from './disk-priority-queue.js';
import { JobdirDupeFilter } from './jobdir-dupe-filter.js';
import { RequestSerializationError } from './jobdir-errors.js';
import { jobdirSetting } from './jobdir-setting.js';
import type { RequestQueue } from './request-queue.js';

/** Scrapy's dupefilter logger, `scrapy.dupefilters`. */
export const DUPEFILTER_LOGGER = 'seine.dupefilters';
/** Scrapy's scheduler logger, `scrapy.core.scheduler`. */
export const SCHEDULER_LOGGER = 'seine.core.scheduler';

export interface SchedulerOptions {
  /** Where requests wait; default an in-memory LIFO priority queue (Scrapy's default). */
  readonly queue?: RequestQueue;
  /**
   * JOBDIR's queue: requests go here first and stay there when the crawl
   * closes; one that cannot be stored (RequestSerializationError) goes to
   * `queue` instead. `restored` counts what an earlier run left.
   */
  readonly diskQueue?: DiskPriorityQueue;
  /** Logs unserializable requests and `Resuming crawl`; default `seine.core.scheduler` on the default bus. */
  readonly schedulerLogger?: Logger;
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
 * `scheduler/enqueued[/memory|/disk]`, `scheduler/dequeued[/memory|/disk]`
 * and `dupefilter/filtered`. With a disk queue (JOBDIR) requests go to disk
 * first and memory is the fallback for those that cannot be serialized;
 * memory is popped first, as in Scrapy.
 */
export class Scheduler implements EngineScheduler, AcknowledgesRequests, KeepsQueueAtClose, JournaledScheduler, TracksFeeds {
  readonly queue: RequestQueue;
  readonly diskQueue: DiskPriorityQueue | null;
  readonly dupeFilter: DupeFilter | null;
  readonly #stats: StatsCollector | null;
  readonly #logger: Logger;
  readonly #schedulerLogger: Logger;
  readonly #debug: boolean;
  #logDuplicates = true;
  #logUnserializable = true;
  #feedSizes: (() => Readonly<Record<string, number>>) | null = null;
  /** Set by dropPending(): the crawl is closing, nothing more is handed out. */
  #closing = false;
  // Built once: the keys are used on every push and pop.
  readonly #enqueuedKind: string;
  readonly #dequeuedKind: string;
  readonly #enqueuedDiskKind: string;
  readonly #dequeuedDiskKind: string;

  constructor(options: SchedulerOptions = {}) {
    this.queue = options.queue ?? new MemoryPriorityQueue();
    this.dupeFilter = options.dupeFilter ?? null;
    this.#stats = options.stats ?? null;
    this.#logger = options.logger ?? getLogger(DUPEFILTER_LOGGER);
    this.#debug = options.debug ?? false;
    const kind = this.queue.kind ?? 'memory';
    this.#enqueuedKind = `scheduler/enqueued/${kind}`;
    this.#dequeuedKind = `scheduler/dequeued/${kind}`;
    this.diskQueue = options.diskQueue ?? null;
    const diskKind = this.diskQueue?.kind ?? 'disk';
    this.#enqueuedDiskKind = `scheduler/enqueued/${diskKind}`;
    this.#dequeuedDiskKind = `scheduler/dequeued/${diskKind}`;
    this.#schedulerLogger = options.schedulerLogger ?? getLogger(SCHEDULER_LOGGER);
    if (this.diskQueue !== null) this.dupeFilter?.restore?.(this.diskQueue.fingerprints());
  }

  /**
   * Scrapy's `Resuming crawl (N requests scheduled)` when opened on a JOBDIR
   * with requests left, and what it recovered from a run that was killed.
   */
  async open(): Promise<void> {
    const restored = this.restored;
    if (restored > 0) this.#schedulerLogger.info(`Resuming crawl (${restored} requests scheduled)`);
    const recovered = this.diskQueue?.recovered ?? 0;
    if (recovered > 0) {
      this.#schedulerLogger.warning(
        `Recovered ${recovered} request${recovered === 1 ? '' : 's'} that the previous run had started but not finished (it was killed): crawling ${recovered === 1 ? 'it' : 'them'} again`,
      );
      this.#stats?.set('scheduler/recovered', recovered);
    }
    const skipped = this.startOffset;
    if (skipped > 0) this.#schedulerLogger.info(`Skipping the first ${skipped} output${skipped === 1 ? '' : 's'} of start(): recorded by an earlier run`);
  }

  /** True with a JOBDIR: the engine commits each request's output with its acknowledgement. */
  get journaled(): boolean {
    return this.diskQueue !== null;
  }

  /** How many outputs of start() an earlier run of this JOBDIR recorded. */
  get startOffset(): number {
    return this.diskQueue?.progress.start ?? 0;
  }

  /**
   * Registers how to read the append-mode feed files' sizes, recorded with
   * each acknowledgement; returns the sizes the previous run recorded last
   * (a resumed run truncates its feeds to them: what is beyond belongs to
   * requests that did not finish and will be crawled again).
   */
  trackFeeds(sizes: () => Readonly<Record<string, number>>): Readonly<Record<string, number>> | null {
    this.#feedSizes = sizes;
    return this.diskQueue?.progress.feeds ?? null;
  }

  /** The request's callback output is recorded: with JOBDIR it leaves the journal now. */
  acknowledge(request: Request): void {
    this.diskQueue?.acknowledge(request, this.#currentFeedSizes());
  }

  /** The first `count` outputs of start() are recorded (JOBDIR skips them on the next run). */
  recordStart(count: number): void {
    this.diskQueue?.recordStart(count, this.#currentFeedSizes());
  }

  #currentFeedSizes(): Readonly<Record<string, number>> | null {
    const sizes = this.#feedSizes?.() ?? null;
    return sizes === null || Object.keys(sizes).length === 0 ? null : sizes;
  }

  /** Requests an earlier run left in JOBDIR; the engine counts them as work to do. */
  get restored(): number {
    return this.diskQueue?.restored ?? 0;
  }

  /**
   * Reads SCHEDULER_MEMORY_QUEUE, SCHEDULER_PRIORITY_QUEUE,
   * DUPEFILTER_DEBUG, and JOBDIR with SCHEDULER_DISK_QUEUE (a disk queue
   * and a duplicate filter kept in files; the disk queue is one priority
   * queue whatever SCHEDULER_PRIORITY_QUEUE says). The fingerprint
   * function comes from the caller until the Crawler carries one.
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
    const jobdir = jobdirSetting(settings);
    // Read before any file is opened, so a bad value leaves nothing open.
    const diskOrder = jobdir === null ? null : diskQueueOrderSetting(settings);
    const scheduler = new Scheduler({
      queue,
      ...(jobdir === null || diskOrder === null
        ? { dupeFilter: new FingerprintDupeFilter(dependencies.fingerprint) }
        : {
            diskQueue: new DiskPriorityQueue({ dir: join(jobdir, 'requests.queue'), order: diskOrder, spider: crawler.spider, fingerprint: dependencies.fingerprint }),
            dupeFilter: new JobdirDupeFilter(dependencies.fingerprint, jobdir),
          }),
      stats: crawler.stats,
      logger: crawler.logBus.getLogger(DUPEFILTER_LOGGER),
      schedulerLogger: crawler.logBus.getLogger(SCHEDULER_LOGGER),
      debug: settings.getBool('DUPEFILTER_DEBUG'),
    });
    return scheduler;
  }

  /** Stores `request`; false when it is a duplicate (logged once, counted in `dupefilter/filtered`). */
  enqueue(request: Request): boolean {
    if (this.#isDuplicate(request)) return false;
    if (this.#pushToDisk(request)) {
      this.#stats?.inc(this.#enqueuedDiskKind);
    } else {
      this.queue.push(request);
      this.#stats?.inc(this.#enqueuedKind);
    }
    // The fingerprint is written after the request is queued (see JobdirDupeFilter).
    this.dupeFilter?.flush?.();
    this.#stats?.inc('scheduler/enqueued');
    return true;
  }

  /**
   * A request yielded while the crawl closes (by a callback still running):
   * with JOBDIR it is filtered and stored on disk for the next run, as
   * Scrapy's scheduler does until it closes; without, it is dropped. True when it was stored.
   */
  enqueueAfterClose(request: Request): boolean {
    if (this.diskQueue === null || this.#isDuplicate(request) || !this.#pushToDisk(request)) return false;
    this.dupeFilter?.flush?.();
    this.#stats?.inc(this.#enqueuedDiskKind);
    this.#stats?.inc('scheduler/enqueued');
    return true;
  }

  /** The next request: from memory first, then from disk (Scrapy's order), or undefined when none is queued. */
  next(): Request | undefined {
    if (this.#closing) return undefined;
    let request = this.queue.pop();
    if (request !== undefined) {
      this.#stats?.inc(this.#dequeuedKind);
    } else if (this.diskQueue !== null) {
      request = this.diskQueue.pop();
      if (request !== undefined) this.#stats?.inc(this.#dequeuedDiskKind);
    }
    if (request !== undefined) this.#stats?.inc('scheduler/dequeued');
    return request;
  }

  hasPending(): boolean {
    return this.size > 0;
  }

  /** How many requests are queued (none once the crawl closes). */
  get size(): number {
    if (this.#closing) return 0;
    return this.queue.size + (this.diskQueue?.size ?? 0);
  }

  /**
   * The crawl is closing: forgets the requests in memory, keeps those on
   * disk for the next run, and hands out nothing more. Returns the requests
   * it forgot (those kept on disk are not dropped).
   */
  dropPending(): Request[] {
    const forgotten: Request[] = [];
    for (let dropped = this.queue.pop(); dropped !== undefined; dropped = this.queue.pop()) forgotten.push(dropped);
    this.#closing = true;
    return forgotten;
  }

  /** Closes the queues and the duplicate filter (what they hold is released or persisted). */
  async close(reason: string): Promise<void> {
    // Scrapy's order: the queues, then the duplicate filter. seine's disk parts do their work synchronously.
    await this.queue.close?.();
    await this.diskQueue?.close?.();
    await this.dupeFilter?.close?.(reason);
  }

  /** True when the request went to the disk queue; false without one, or when it cannot be serialized. */
  #pushToDisk(request: Request): boolean {
    if (this.diskQueue === null) return false;
    try {
      this.diskQueue.push(request);
      return true;
    } catch (error) {
      if (!(error instanceof RequestSerializationError)) throw error;
      // Scrapy logs this only with SCHEDULER_DEBUG; seine always warns once, since such a request is lost when the crawl is paused.
      if (this.#logUnserializable) {
        this.#schedulerLogger.warning(
          `Unable to serialize request: ${request.toString()} - reason: ${error.message} - no more unserializable requests will be logged (stats being collected)`,
        );
        this.#logUnserializable = false;
      }
      this.#stats?.inc('scheduler/unserializable');
      return false;
    }
  }

  /** True when the duplicate filter has seen `request` before: logged (once, or each with DUPEFILTER_DEBUG) and counted in `dupefilter/filtered`. */
  #isDuplicate(request: Request): boolean {
    if (request.dontFilter || this.dupeFilter === null || !this.dupeFilter.seen(request)) return false;
    if (this.#debug) {
      this.#logger.debug(`Filtered duplicate request: ${request.toString()} (referer: ${request.headers.get('Referer') ?? 'None'})`);
    } else if (this.#logDuplicates) {
      this.#logger.debug(
        `Filtered duplicate request: ${request.toString()} - no more duplicates will be shown (see DUPEFILTER_DEBUG to show all duplicates)`,
      );
      this.#logDuplicates = false;
    }
    this.#stats?.inc('dupefilter/filtered');
    return true;
  }
}
