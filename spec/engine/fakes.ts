/**
 * Fakes for testing the engine's stages (src/operators/) one at a time: an
 * EngineState built directly from an array-backed scheduler, recording
 * slots, a fake fetch and the fake crawler, with every CrawlEvent recorded.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Observable } from 'rxjs';
// Through the public entry points (seine, seine/operators), which name everything the stages are made of.
import { EngineState, type EngineOptions, type EngineScheduler, type EngineSlots, type Ticket } from '../../src/operators/index.js';
import { Request, Response, type CrawlEvent, type DownloaderMiddleware, type ItemPipeline, type SpiderMiddleware } from '../../src/index.js';
import { fakeCrawler, type FakeCrawler } from '../helpers/fake-crawler.js';

export const BASE = 'http://example.com';

/** A GET request for `path` on example.com. */
export function req(path: string, options: ConstructorParameters<typeof Request>[1] = {}): Request {
  return new Request(`${BASE}${path}`, options);
}

/** The path of a request's URL (tickets and outcomes are asserted by path). */
export function pathOf(request: Request | null): string {
  return request === null ? '(start)' : new URL(request.url).pathname;
}

/** A 200 response for `request` with `body`. */
export function okResponse(request: Request, body = 'ok'): Response {
  return new Response({ url: request.url, status: 200, headers: { 'Content-Type': 'text/plain' }, body, request });
}

/**
 * The scheduler as an array: higher priority first, FIFO within a priority;
 * a URL seen before is a duplicate unless `dontFilter`. `enqueueThrowsFor`
 * and `nextThrows` make it throw.
 */
export class ArrayScheduler implements EngineScheduler {
  readonly queue: Request[] = [];
  readonly seen = new Set<string>();
  /** `[path, outcome]` of every acknowledgement, in order. */
  readonly acknowledged: Array<[string, 'done' | 'failed']> = [];
  /** enqueue() throws for these paths. */
  readonly enqueueThrowsFor = new Set<string>();
  /** next() throws this when set. */
  nextThrows: Error | null = null;
  /** Set both to give it the KeepsQueueAtClose capability (a JOBDIR scheduler's). */
  dropPending?: () => readonly Request[];
  enqueueAfterClose?: (request: Request) => boolean;

  async open(): Promise<void> {}

  async close(): Promise<void> {}

  enqueue(request: Request): boolean {
    if (this.enqueueThrowsFor.has(pathOf(request))) throw new Error(`queue broken for ${pathOf(request)}`);
    if (!request.dontFilter && this.seen.has(request.url)) return false;
    this.seen.add(request.url);
    const at = this.queue.findIndex((queued) => queued.priority < request.priority);
    if (at === -1) this.queue.push(request);
    else this.queue.splice(at, 0, request);
    return true;
  }

  next(): Request | undefined {
    if (this.nextThrows !== null) throw this.nextThrows;
    return this.queue.shift();
  }

  hasPending(): boolean {
    return this.queue.length > 0;
  }

  acknowledge(request: Request, outcome: 'done' | 'failed'): void {
    this.acknowledged.push([pathOf(request), outcome]);
  }
}

/** Slots whose verdict a test decides; every call is recorded as `[method, path, now]` (and the verdict for canStart). */
export class FakeSlots implements EngineSlots {
  readonly calls: Array<[string, string, number] | [string, string, number, true | number | 'threw']> = [];

  constructor(public verdict: (request: Request, now: number) => true | number = () => true) {}

  canStart(request: Request, now: number): true | number {
    let verdict: true | number;
    try {
      verdict = this.verdict(request, now);
    } catch (error) {
      this.calls.push(['canStart', pathOf(request), now, 'threw']);
      throw error;
    }
    this.calls.push(['canStart', pathOf(request), now, verdict]);
    return verdict;
  }

  started(request: Request, now: number): void {
    this.calls.push(['started', pathOf(request), now]);
  }

  finished(request: Request, now: number): void {
    this.calls.push(['finished', pathOf(request), now]);
  }
}

export interface StateParts extends Partial<EngineOptions> {
  scheduler?: ArrayScheduler;
  slots?: FakeSlots;
  fetch?: (request: Request) => Promise<Response>;
  downloaderMiddlewares?: readonly DownloaderMiddleware[];
  spiderMiddlewares?: readonly SpiderMiddleware[];
  pipelines?: readonly ItemPipeline[];
}

export interface Harness {
  state: EngineState;
  crawler: FakeCrawler;
  scheduler: ArrayScheduler;
  slots: FakeSlots;
  /** Every event the stages emitted, in order. */
  events: CrawlEvent[];
  /** The events as one line each (see `eventLine`), for exact assertions. */
  lines(): string[];
  /** Every request sent back to the scheduler through `state.requests$`, by path. */
  rescheduled: string[];
  /** What the stages raised on `state.fatal$` (faults of the engine itself, which the engine's flow errors with). */
  fatal: unknown[];
}

/** An EngineState made directly from fakes; fetch rejects unless given. */
export function makeState(parts: StateParts = {}): Harness {
  const crawler = fakeCrawler();
  const events: CrawlEvent[] = [];
  // fakeCrawler's emit() feeds its events$ Subject; recording it from the start keeps every event.
  crawler.events$.subscribe((event) => events.push(event));
  const scheduler = parts.scheduler ?? new ArrayScheduler();
  const slots = parts.slots ?? new FakeSlots();
  const fetch = parts.fetch ?? ((request: Request) => Promise.reject(new Error(`no fetch for ${pathOf(request)}`)));
  const options: EngineOptions = {
    maxActive: parts.maxActive ?? 16,
    ...(parts.abort === undefined ? {} : { abort: parts.abort }),
    ...(parts.now === undefined ? {} : { now: parts.now }),
    ...(parts.commitPerTicket === undefined ? {} : { commitPerTicket: parts.commitPerTicket }),
    ...(parts.onTicketClosed === undefined ? {} : { onTicketClosed: parts.onTicketClosed }),
  };
  const state = new EngineState(
    crawler.settings,
    crawler.spider,
    crawler,
    scheduler,
    slots,
    fetch,
    parts.downloaderMiddlewares ?? [],
    parts.spiderMiddlewares ?? [],
    parts.pipelines ?? [],
    options,
  );
  const rescheduled: string[] = [];
  state.requests$.subscribe((request) => rescheduled.push(pathOf(request)));
  const fatal: unknown[] = [];
  state.fatal$.subscribe((error) => fatal.push(error));
  return { state, crawler, scheduler, slots, events, lines: () => events.map(eventLine), rescheduled, fatal };
}

/** One event as a line: its type, the request's path, and what else identifies it (reason, stage, error message, item). */
export function eventLine(event: CrawlEvent): string {
  switch (event.type) {
    case 'request_scheduled':
    case 'request_reached_downloader':
    case 'request_left_downloader':
      return `${event.type} ${pathOf(event.request)}`;
    case 'request_dropped':
      return `request_dropped ${pathOf(event.request)} ${event.reason}`;
    case 'response_downloaded':
    case 'response_received':
      return `${event.type} ${pathOf(event.request)} ${event.response.status}`;
    case 'download_error':
      return `download_error ${pathOf(event.request)} ${event.error.name}: ${event.error.message}`;
    case 'engine_error':
      return `engine_error ${event.stage} ${pathOf(event.request)} ${event.error.message}`;
    case 'spider_error':
      return `spider_error ${event.response === null ? '-' : pathOf(event.response.request)} ${event.error.name}: ${event.error.message}`;
    case 'item_scraped':
      return `item_scraped ${JSON.stringify(event.item)}`;
    case 'item_dropped':
    case 'item_error':
      return `${event.type} ${JSON.stringify(event.item)} ${event.error.name}: ${event.error.message}`;
    default:
      return event.type;
  }
}

/** A ticket as `[path, phase]`. */
export function ticketLine(ticket: Ticket): [string, string] {
  return [pathOf(ticket.request), ticket.phase];
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run (one turn of the event loop; real timers only). */
export function settleAll(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

export type Ending = { ended: 'complete' } | { ended: 'error'; error: unknown } | { ended: 'hung' };

/** How a finite flow ended within `ms` (real time): it completed, it errored (with what), or it is still running. */
export function ending(source: Observable<unknown>, ms = 500): Promise<Ending> {
  return new Promise<Ending>((resolve) => {
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      resolve({ ended: 'hung' });
    }, ms);
    const subscription = source.subscribe({
      error: (error: unknown) => {
        clearTimeout(timer);
        resolve({ ended: 'error', error });
      },
      complete: () => {
        clearTimeout(timer);
        resolve({ ended: 'complete' });
      },
    });
  });
}

/** The ticket book's close hook fails for `path`: the scheduler's acknowledge throws (a JOBDIR journal that cannot be written). */
export function brokenJournal(scheduler: ArrayScheduler, path: string): Error {
  const error = new Error(`journal write failed for ${path}`);
  const acknowledge = scheduler.acknowledge.bind(scheduler);
  scheduler.acknowledge = (request, outcome) => {
    if (pathOf(request) === path) throw error;
    acknowledge(request, outcome);
  };
  return error;
}

/** True when `error` was reported: as the flow's error, or as an engine_error event. */
export function reported(harness: Harness, result: Ending, error: Error): boolean {
  return (
    (result.ended === 'error' && result.error === error) ||
    harness.events.some((event) => event.type === 'engine_error' && event.error === error) ||
    harness.fatal.includes(error)
  );
}

/** What close-hook-child.ts measured for one scenario. */
export interface CloseHookResult {
  ended: 'complete' | 'error' | 'hung';
  reported: boolean;
  secondTicket: string;
  unhandled: string[];
}

/**
 * Runs close-hook-child.ts for one stage's scenario in a child process (see there why: an
 * unhandled rejection cannot be observed inside jest) and returns what it measured.
 */
export async function closeHookScenario(scenario: 'scrape' | 'item-pipeline' | 'download'): Promise<CloseHookResult> {
  const child = fileURLToPath(new URL('./close-hook-child.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, scenario], { timeout: 30_000 });
  const results = JSON.parse(stdout) as Record<string, CloseHookResult>;
  return results[scenario]!;
}
