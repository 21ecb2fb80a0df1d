import { Subject } from 'rxjs';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider } from '../spider/spider.js';
import type { Settings } from '../settings/index.js';
import type { DownloaderMiddleware, ItemPipeline, SpiderMiddleware } from './components.js';
import type { Crawler } from './crawler.js';
import type { CrawlEvent } from './events.js';

/** The scheduler as the engine drives it (src/scheduler implements it). */
export interface EngineScheduler {
  /** False when the request was filtered (duplicate). */
  enqueue(request: Request): boolean;
  next(): Request | undefined;
  hasPending(): boolean;
  /** Requests an earlier run left queued (a resumed JOBDIR): work to do before the crawl is idle. */
  readonly restored?: number;
  /**
   * At close: hands out nothing more and returns how many requests were
   * queued; a JOBDIR scheduler keeps them on disk for the next run. Without
   * it the engine pops and drops them.
   */
  dropPending?(): number;
  /** A request yielded while the crawl closes: a JOBDIR scheduler stores it for the next run; without it, it is dropped. */
  enqueueAfterClose?(request: Request): void;
}

/** Download slots as the engine drives them (src/throttle implements them). */
export interface EngineSlots {
  /** true when the request may start now, else the milliseconds to wait. */
  canStart(request: Request, now: number): true | number;
  started(request: Request, now: number): void;
  finished(request: Request, now: number): void;
}

/**
 * Crawl-lifetime state (STYLE.md §3), created once per run by the engine
 * and handed to every stage: nothing crawl-wide lives in module scope.
 */
export class EngineState {
  /** Units of work not finished: requests on their way, callbacks running, items in the pipeline. */
  pending = 0;
  /** Requests between the scheduler and the end of their download (CONCURRENT_REQUESTS caps it). */
  active = 0;
  startDone = false;
  /** Set once the crawl starts closing; no new request is scheduled after that. */
  closeReason: string | null = null;
  paused = false;
  readonly wake$ = new Subject<void>();
  /** Every request on its way to the scheduler: the spider's start, callbacks, redirects and retries. */
  readonly requests$ = new Subject<Request>();
  readonly downloading = new Set<Request>();

  constructor(
    readonly settings: Settings,
    readonly spider: Spider,
    readonly crawler: Crawler,
    readonly scheduler: EngineScheduler,
    readonly slots: EngineSlots,
    readonly fetch: (request: Request) => Promise<Response>,
    readonly downloaderMiddlewares: readonly DownloaderMiddleware[],
    readonly spiderMiddlewares: readonly SpiderMiddleware[],
    readonly pipelines: readonly ItemPipeline[],
    readonly maxActive: number,
    readonly abort: AbortController = new AbortController(),
    readonly now: () => number = () => Date.now(),
  ) {
    this.pending = scheduler.restored ?? 0;
  }

  emit(event: CrawlEvent): void {
    this.crawler.emit(event);
  }

  /** One more unit of work. */
  begin(): void {
    this.pending++;
  }

  /** A unit of work finished; when none is left and the start is exhausted, the crawl is idle. */
  end(): void {
    this.pending--;
    this.wake$.next();
  }

  /** Sends a request to the scheduler (counted until it is dropped or its callback finishes). */
  schedule(request: Request): void {
    this.begin();
    this.requests$.next(request);
  }

  isIdle(): boolean {
    return this.startDone && this.pending === 0;
  }

  /**
   * Starts closing: nothing new is scheduled, what is queued is dropped
   * (kept on disk with JOBDIR), and what is in flight finishes; the flow
   * then goes idle and completes.
   */
  beginClose(reason: string): void {
    if (this.closeReason !== null) return;
    this.closeReason = reason;
    this.startDone = true;
    if (this.scheduler.dropPending !== undefined) this.pending -= this.scheduler.dropPending();
    else for (let dropped = this.scheduler.next(); dropped !== undefined; dropped = this.scheduler.next()) this.pending--;
    this.wake$.next();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake$.next();
  }
}
