import type { Observable } from 'rxjs';
import type { Request } from '../http/request.js';

/**
 * The scheduler as the engine drives it: Scrapy's BaseScheduler, "the
 * minimal interface the engine interacts with". Everything else a scheduler
 * can do is a named capability below, which the engine and the crawler ask
 * for once, when the crawl opens (never per request).
 */
export interface EngineScheduler {
  /**
   * Before the crawl starts (before the components open, so before `Spider opened`, as in Scrapy): a scheduler that
   * keeps its state outside this process (Redis) connects here, one on a JOBDIR says what it resumes; a throw fails
   * the run (`open_failed`).
   */
  open(): Promise<void>;
  /** After `spider_closed`: releases or persists what it holds (files, leases); the crawl's close waits for it. */
  close(reason: string): Promise<void>;
  /** False when the request was filtered (duplicate). */
  enqueue(request: Request): boolean;
  next(): Request | undefined;
  hasPending(): boolean;
}

/**
 * Learns when a request's ticket closed: its callback's output (new
 * requests, items) is recorded. A JOBDIR or Redis scheduler removes it from
 * its journal only now, so a crash before this point crawls it again.
 */
export interface AcknowledgesRequests {
  acknowledge(request: Request, outcome: 'done' | 'failed', items?: readonly unknown[]): void;
}

/** Keeps what is queued past the close, for the next run (JOBDIR) or the other workers (Redis). */
export interface KeepsQueueAtClose {
  /** At close: hands out nothing more and returns the queued requests it forgot (those it keeps are not among them). */
  dropPending(): readonly Request[];
  /** A request yielded while the crawl closes: true when it was kept; otherwise the engine drops it. */
  enqueueAfterClose(request: Request): boolean;
}

/** A queue shared with other processes (Redis): its state changes by itself, and it must hear when this worker's start ended. */
export interface SharedQueue {
  /** Emits when requests arrived from elsewhere or the shared crawl ended: the engine asks again, and checks for idle. */
  readonly changed$: Observable<void>;
  /** The spider's start has ended (`complete`: it ran to its end rather than being stopped by the close). */
  finishStart(complete: boolean): void;
}

/**
 * Keeps a journal (JOBDIR, Redis): the engine commits a ticket's items with
 * its acknowledgement, and a resumed run skips the outputs of start() an
 * earlier run recorded.
 */
export interface JournaledScheduler {
  readonly journaled: boolean;
  /** How many outputs of start() an earlier run recorded (they are skipped). */
  readonly startOffset: number;
  /** The first `count` outputs of start() are recorded. */
  recordStart(count: number): void;
}

/** Records the feed files' sizes with each acknowledgement, so a resumed run cuts back what belongs to unfinished requests (JOBDIR). */
export interface TracksFeeds {
  /** Registers how to read the append-mode feed files' sizes; returns the sizes the previous run recorded last. */
  trackFeeds(sizes: () => Readonly<Record<string, number>>): Readonly<Record<string, number>> | null;
}

/**
 * Coordinates worker processes that crawl for it (`--workers N`,
 * src/workers/): their items reach this process's feeds, and the close
 * waits for them before the feeds are finalised and the stats dumped.
 */
export interface CoordinatesWorkers {
  /** Where the workers' items go: the crawl's one set of feeds. */
  attachFeeds(exportItem: (item: unknown) => void): void;
  /** The crawl closes: every worker ends (gracefully), and its last stats are merged into this crawl's. */
  drain(reason: string): Promise<void>;
}

// The checks below read a scheduler once, when the crawl opens; each returns it typed, or null.
// A scheduler has a capability when it has the capability's methods (and, for the journal, says it keeps one).

type Probe = EngineScheduler & Record<string, unknown>;
const has = (scheduler: EngineScheduler, ...methods: string[]): boolean => methods.every((name) => typeof (scheduler as Probe)[name] === 'function');

export function acknowledgesRequests<S extends EngineScheduler>(scheduler: S): (S & AcknowledgesRequests) | null {
  return has(scheduler, 'acknowledge') ? (scheduler as S & AcknowledgesRequests) : null;
}

export function keepsQueueAtClose<S extends EngineScheduler>(scheduler: S): (S & KeepsQueueAtClose) | null {
  return has(scheduler, 'dropPending', 'enqueueAfterClose') ? (scheduler as S & KeepsQueueAtClose) : null;
}

export function sharedQueue<S extends EngineScheduler>(scheduler: S): (S & SharedQueue) | null {
  return has(scheduler, 'finishStart') && (scheduler as Probe)['changed$'] !== undefined ? (scheduler as S & SharedQueue) : null;
}

/** Null also for a scheduler that could keep a journal and does not (the default scheduler without JOBDIR). */
export function journaledScheduler<S extends EngineScheduler>(scheduler: S): (S & JournaledScheduler) | null {
  return (scheduler as Probe)['journaled'] === true && has(scheduler, 'recordStart') ? (scheduler as S & JournaledScheduler) : null;
}

export function tracksFeeds<S extends EngineScheduler>(scheduler: S): (S & TracksFeeds) | null {
  return has(scheduler, 'trackFeeds') ? (scheduler as S & TracksFeeds) : null;
}

export function coordinatesWorkers<S extends EngineScheduler>(scheduler: S): (S & CoordinatesWorkers) | null {
  return has(scheduler, 'attachFeeds', 'drain') ? (scheduler as S & CoordinatesWorkers) : null;
}
