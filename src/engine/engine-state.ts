import { BehaviorSubject, Subject } from 'rxjs';
import { isDependencyMissing } from '../contracts/control-flow.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider } from '../contracts/spider.js';
import type { Settings } from '../settings/index.js';
import type { DownloaderMiddleware, ItemPipeline, SpiderMiddleware } from '../contracts/components.js';
import type { Crawler } from '../contracts/crawler.js';
import type { CrawlEvent, DropReason } from '../contracts/events.js';
import { acknowledgesRequests, keepsQueueAtClose, sharedQueue, type EngineScheduler, type KeepsQueueAtClose, type SharedQueue } from '../contracts/scheduler.js';
import { TicketBook, type Ticket } from './ticket.js';
import type { ScrapedItem } from './item-pipeline.js';

/** The scheduler's contract lives with the contracts (src/scheduler implements it); the engine's entry names it too. */
export type { EngineScheduler } from '../contracts/scheduler.js';

/** Download slots as the engine drives them (src/throttle implements them). */
export interface EngineSlots {
  /** true when the request may start now, else the milliseconds to wait. */
  canStart(request: Request, now: number): true | number;
  started(request: Request, now: number): void;
  finished(request: Request, now: number): void;
}

/** What an engine needs besides its components. */
export interface EngineOptions {
  /** CONCURRENT_REQUESTS: tickets in the active phases (taken, downloading). */
  readonly maxActive: number;
  readonly abort?: AbortController;
  readonly now?: () => number;
  /**
   * Hold the items of a ticket until it closes, and hand them to `onClose`
   * (JOBDIR: a ticket's items and its acknowledgement are written together).
   * Otherwise items flow on as they leave the item pipeline.
   */
  readonly commitPerTicket?: boolean;
  /** Called once per closed ticket, after the scheduler's acknowledgement. */
  readonly onTicketClosed?: (ticket: Ticket) => void;
  /** Loads what the fetch function needs (got): awaited before the first request leaves the throttle stage. */
  readonly warmUp?: () => Promise<void>;
}

/**
 * Crawl-lifetime state, created once per run and handed to every stage:
 * nothing crawl-wide lives in module scope. The open tickets decide the
 * crawl's concurrency and its end (src/engine/ticket.ts).
 */
export class EngineState {
  readonly tickets: TicketBook;
  /** Set once the crawl starts closing; no new request is scheduled after that. */
  closeReason: string | null = null;
  /** The engine's gate: true while inspectResponse holds the crawl. */
  readonly paused$ = new BehaviorSubject<boolean>(false);
  /** Every request on its way to the scheduler: the spider's start, callbacks, redirects and retries. */
  readonly requests$ = new Subject<Request>();
  /** Faults of the engine itself, raised where no stage can handle them: the flow errors with the first. */
  readonly fatal$ = new Subject<unknown>();
  /** Requests between the start and the end of their download, for the telnet console's `est()`. */
  readonly downloading = new Set<Request>();
  readonly maxActive: number;
  readonly abort: AbortController;
  readonly now: () => number;
  readonly commitPerTicket: boolean;
  /** The scheduler's capabilities the stages use, asked for once here rather than per request (null: it has none). */
  readonly keepsQueue: KeepsQueueAtClose | null;
  readonly sharedQueue: SharedQueue | null;

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
    options: EngineOptions,
  ) {
    this.maxActive = options.maxActive;
    this.abort = options.abort ?? new AbortController();
    this.now = options.now ?? (() => Date.now());
    this.commitPerTicket = options.commitPerTicket ?? false;
    this.#warmUp = options.warmUp;
    const onTicketClosed = options.onTicketClosed;
    this.keepsQueue = keepsQueueAtClose(scheduler);
    this.sharedQueue = sharedQueue(scheduler);
    const acknowledging = acknowledgesRequests(scheduler);
    this.tickets = new TicketBook((ticket) => {
      try {
        if (ticket.request !== null) {
          acknowledging?.acknowledge(ticket.request, ticket.outcome ?? 'failed', ticket.items === null ? [] : (ticket.items as ScrapedItem[]).map((scraped) => scraped.item));
        }
        onTicketClosed?.(ticket);
      } catch (error) {
        // A journal that cannot record a finished request (a full disk) makes the crawl's record
        // unreliable: the engine fails, and the crawler closes cleanly. The stage that closed the
        // ticket goes on as if nothing happened, so it cannot hang on the throw.
        this.fatal$.next(error);
      }
    });
  }

  get paused(): boolean {
    return this.paused$.value;
  }

  #warmUp: (() => Promise<void>) | undefined;
  /** The warm-up under way, from the first request that waited for it until it is done. */
  #warming: Promise<void> | undefined;

  /**
   * True when requests may leave for the downloader. The first call starts
   * the fetch function's warm-up (loading got) and returns false; `onReady`
   * is called once it is done. A warm-up that fails (got cannot be loaded)
   * fails the crawl instead: every request would fail the same way. A crawl
   * that downloads nothing never loads it.
   */
  downloaderReady(onReady: () => void): boolean {
    if (this.#warmUp === undefined) return true;
    this.#warming ??= this.#warmUp().then(
      () => {
        this.#warmUp = undefined;
        onReady();
      },
      (error: unknown) => this.fatal$.next(error),
    );
    return false;
  }

  /** Tickets in the active phases: what CONCURRENT_REQUESTS caps. */
  get active(): number {
    return this.tickets.active;
  }

  emit(event: CrawlEvent): void {
    this.crawler.emit(event);
  }

  /** Sends a request to the scheduler (synchronously: it is queued, or dropped, when this returns). */
  schedule(request: Request): void {
    this.requests$.next(request);
  }

  /** A request that will not be crawled: the `request_dropped` event with why. */
  drop(request: Request, reason: DropReason): void {
    this.emit({ type: 'request_dropped', request, reason });
  }

  /**
   * True, after failing the crawl, for an error no page caused: a package
   * seine needs could not be loaded. Stages call it where they would log a
   * request's error and go on.
   */
  failOn(error: unknown): boolean {
    if (!isDependencyMissing(error)) return false;
    this.fatal$.next(error);
    return true;
  }

  /**
   * A throw from a stage or a component outside the callbacks: logged and
   * counted (`engine_error`) for that unit of work; the crawl goes on.
   */
  fault(stage: string, request: Request | null, thrown: unknown): void {
    this.emit({ type: 'engine_error', stage, request, error: thrown instanceof Error ? thrown : new Error(String(thrown)) });
  }

  /** No open ticket and nothing queued: Scrapy's idle rule (the start is a ticket too). */
  isIdle(): boolean {
    return this.tickets.open === 0 && !this.scheduler.hasPending();
  }

  /**
   * Starts closing: nothing new is scheduled, what is queued is dropped
   * (kept on disk with JOBDIR), and what is in flight finishes; the flow
   * then goes idle and completes.
   */
  beginClose(reason: string): void {
    if (this.closeReason !== null) return;
    this.closeReason = reason;
    const forgotten: Request[] = [];
    try {
      // A loop, not push(...list): spreading 200,000 queued requests overflows the call stack.
      if (this.keepsQueue !== null) for (const request of this.keepsQueue.dropPending()) forgotten.push(request);
      else for (let dropped = this.scheduler.next(); dropped !== undefined; dropped = this.scheduler.next()) forgotten.push(dropped);
    } catch (error) {
      // A scheduler that fails here cannot stop the close; what it still held is not crawled.
      this.fault('close', null, error);
    }
    for (const request of forgotten) this.drop(request, 'closing');
    this.tickets.changed$.next();
  }

  pause(): void {
    if (!this.paused) this.paused$.next(true);
  }

  resume(): void {
    if (this.paused) this.paused$.next(false);
  }
}
