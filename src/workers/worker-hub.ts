import { Subject, type Observable } from 'rxjs';
import type { Crawler } from '../contracts/crawler.js';
import type { AcknowledgesRequests, CoordinatesWorkers, EngineScheduler, JournaledScheduler, KeepsQueueAtClose, SharedQueue, TracksFeeds } from '../contracts/scheduler.js';
import type { Request } from '../http/request.js';
import type { Logger } from '../log/index.js';
import type { PushEntry } from '../frontier/frontier-client.js';
import { FingerprintSet } from '../scheduler/fingerprint-set.js';
import { requestFromDict, requestToDict } from '../scheduler/request-dict.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import { SlotSchedule, type SlotLimits } from './slot-schedule.js';
import type { CoordinatorMessage, LeaseReply, WorkerCall } from './worker-messages.js';

export const WORKERS_LOGGER = 'seine.workers';

/** The processes behind the hub (src/workers/worker-pool.ts): the hub answers their calls and learns when one ends. */
export interface WorkerProcesses {
  /** Starts the workers; `handle` answers each call, `gone` hears of a worker that ended. */
  start(hub: WorkerHub): void;
  send(worker: number, message: CoordinatorMessage): void;
  /** Asks every worker to close gracefully. */
  stopAll(): void;
  /** Resolves once every worker has ended. */
  ended(): Promise<void>;
  readonly alive: number;
}

interface Lease {
  readonly request: Request;
  readonly worker: number;
  readonly slot: SlotSchedule;
}

/** Requests taken from the queue whose slot could not take them yet wait here, at most this many. */
const PARKED_MAX = 512;
/** Stats a worker keeps that the coordinator owns (its queue, its duplicate filter, its clock). */
const COORDINATOR_KEYS = /^(scheduler\/|frontier\/|start_time$|finish_time$|finish_reason$|elapsed_time_seconds$|memusage\/)/;

/**
 * The coordinator's scheduler under `--workers N`: the process the user
 * started keeps the crawl's one queue and duplicate filter (the ordinary
 * Scheduler: memory, or JOBDIR's journal) and runs start(); its worker
 * processes lease requests from it, push what their callbacks yield, and
 * acknowledge each request with its items, which this process writes to
 * the feeds. Its own engine crawls nothing (next() is always empty): it is
 * idle once the queue is empty, start() has ended and no lease is out.
 *
 * Politeness is kept over all workers here (SlotSchedule): a slot's leases
 * are capped by its concurrency, and with a delay each lease carries the
 * time its request may start.
 */
export class WorkerHub implements EngineScheduler, AcknowledgesRequests, KeepsQueueAtClose, JournaledScheduler, TracksFeeds, SharedQueue, CoordinatesWorkers {
  readonly changed$: Observable<void>;
  readonly #changed = new Subject<void>();
  readonly #leases = new Map<string, Lease>();
  readonly #slots = new Map<string, SlotSchedule>();
  /** Taken from the queue, waiting for their slot (and leases given back by a worker that ended). */
  #parked: Request[] = [];
  /** Fingerprints pushed before: a repeat is answered without building its Request. */
  readonly #pushed = new FingerprintSet();
  readonly #hungry = new Set<number>();
  /** Per worker, the values of its counters already added to this crawl's stats. */
  readonly #applied = new Map<number, Map<string, number>>();
  readonly #logger: Logger;
  #exportItem: (item: unknown) => void = () => undefined;
  #nextLease = 0;
  #startDone = false;
  #closing = false;
  #drained = false;
  /** CLOSESPIDER_ITEMCOUNT, _PAGECOUNT, _ERRORCOUNT over all workers (0: no limit); the workers run with none. */
  readonly #limits: { readonly items: number; readonly pages: number; readonly errors: number };
  #workerItems = 0;
  /** Duplicates the queue filtered for the workers: each worker counts those itself. */
  #filteredForWorkers = 0;

  constructor(
    readonly crawler: Crawler,
    readonly inner: Scheduler,
    readonly slots: { slotKey(request: Request): string; limitsOf(key: string): SlotLimits },
    readonly processes: WorkerProcesses,
    readonly random: () => number = Math.random,
  ) {
    this.changed$ = this.#changed.asObservable();
    this.#logger = crawler.logBus.getLogger(WORKERS_LOGGER);
    const { settings } = crawler;
    this.#limits = { items: settings.getInt('CLOSESPIDER_ITEMCOUNT'), pages: settings.getInt('CLOSESPIDER_PAGECOUNT'), errors: settings.getInt('CLOSESPIDER_ERRORCOUNT') };
  }

  // --- the coordinator's own engine -----------------------------------------------------------

  get journaled(): boolean {
    return this.inner.journaled;
  }

  get startOffset(): number {
    return this.inner.startOffset;
  }

  recordStart(count: number): void {
    this.inner.recordStart(count);
  }

  trackFeeds(sizes: () => Readonly<Record<string, number>>): Readonly<Record<string, number>> | null {
    return this.inner.trackFeeds(sizes);
  }

  attachFeeds(exportItem: (item: unknown) => void): void {
    this.#exportItem = exportItem;
  }

  async open(): Promise<void> {
    await this.inner.open();
    this.processes.start(this);
  }

  enqueue(request: Request): boolean {
    const queued = this.inner.enqueue(request);
    if (queued) this.#wake();
    return queued;
  }

  /** The coordinator crawls nothing itself: its workers do. */
  next(): Request | undefined {
    return undefined;
  }

  hasPending(): boolean {
    if (this.#closing) return false;
    return !this.#startDone || this.#leases.size > 0 || this.#parked.length > 0 || this.inner.size > 0;
  }

  finishStart(): void {
    this.#startDone = true;
    this.#changed.next();
    this.#wake();
  }

  acknowledge(): void {
    // The coordinator's own tickets are start() outputs only: nothing was leased for them.
  }

  /** Ctrl-C (or a close): the workers finish what they hold; what is queued stays in JOBDIR, or is dropped. */
  dropPending(): readonly Request[] {
    if (!this.#closing) {
      this.#closing = true;
      this.processes.stopAll();
    }
    const forgotten = [...this.#parked.filter(() => !this.inner.journaled), ...this.inner.dropPending()];
    this.#parked = [];
    return forgotten;
  }

  enqueueAfterClose(request: Request): boolean {
    return this.inner.enqueueAfterClose(request);
  }

  async drain(reason: string): Promise<void> {
    if (this.#drained) return;
    this.#drained = true;
    // Finished: the workers see it in their next lease reply and close as finished too. Any other reason: they are told to stop.
    if (reason !== 'finished') this.dropPending();
    else if (!(await settlesWithin(this.processes.ended(), FINISH_GRACE_MS))) this.dropPending();
    await this.processes.ended();
    if (this.#filteredForWorkers > 0) this.crawler.stats.inc('dupefilter/filtered', -this.#filteredForWorkers);
  }

  async close(reason: string): Promise<void> {
    await this.drain(reason);
    await this.inner.close(reason);
  }

  // --- the workers' calls ---------------------------------------------------------------------

  /** Answers one call of `worker`; undefined for calls that wait for no reply. */
  handle(worker: number, call: WorkerCall): unknown {
    switch (call.op) {
      case 'push':
        return this.#push(call.entries);
      case 'lease':
        return this.#lease(worker, call.count);
      case 'ack':
        return this.#ack(call.lease, call.outcome, call.delay, call.items);
      case 'renew':
        this.#addStats(worker, parseStats(call.stats));
        return [];
      case 'release':
        return this.#release(call.leases);
      case 'claim':
        // start() runs here, in the coordinator.
        return { state: this.#startDone ? 'done' : 'busy', count: 0 };
      case 'pause': {
        const slot = this.#slot(call.slot);
        slot.pausedUntil = Math.max(slot.pausedUntil, Date.now() + call.ms);
        return null;
      }
      case 'reserve':
        return this.#slot(call.slot).reserve(Date.now(), call.intervalMs);
    }
  }

  /** A worker ended. Before the crawl asked it to (a crash, a kill): one line, and its leases go back to the queue for the others. */
  workerGone(worker: number, how: string, expected: boolean): void {
    this.#hungry.delete(worker);
    const mine = [...this.#leases].filter(([, lease]) => lease.worker === worker);
    for (const [id, lease] of mine) {
      this.#leases.delete(id);
      lease.slot.leased--;
      if (!this.#closing) this.#parked.unshift(lease.request);
    }
    if (!expected) {
      this.crawler.stats.inc('workers/failed');
      const back = mine.length === 0 ? '' : this.#closing ? `; its ${mine.length} unfinished requests are crawled again by the next run with JOBDIR` : `; its ${mine.length} unfinished requests go back to the queue`;
      this.#logger.error(`Worker ${worker} ${how}${back}`);
      if (this.processes.alive === 0 && !this.#closing) {
        this.#logger.error('No worker is left: the crawl stops');
        this.crawler.close('workers_failed');
      }
    }
    this.#wake();
    this.#changed.next();
  }

  #push(entries: readonly PushEntry[]): number[] {
    const spider = this.crawler.spider;
    const answers = entries.map((entry) => {
      if (!entry.dontFilter && this.#pushed.has(entry.fingerprint)) return 0;
      let request: Request;
      try {
        request = requestFromDict(JSON.parse(entry.json) as never, spider);
      } catch (error) {
        this.#logger.error(`Cannot read a request a worker yielded: ${(error as Error).message}`);
        return 0;
      }
      if (!entry.dontFilter) this.#pushed.add(entry.fingerprint);
      const queued = this.#closing ? this.inner.enqueueAfterClose(request) : this.inner.enqueue(request);
      if (!queued && !this.#closing) this.#filteredForWorkers++;
      return queued ? 1 : 0;
    });
    if (answers.includes(1)) this.#wake();
    return answers;
  }

  #lease(worker: number, count: number): LeaseReply {
    const leased: Array<{ id: string; json: string }> = [];
    const now = Date.now();
    if (!this.#closing && count > 0) {
      const spider = this.crawler.spider;
      const give = (request: Request): boolean => {
        const slot = this.#slotOf(request);
        const start = slot.startFor(now);
        if (start === null) return false;
        let json: string;
        try {
          json = JSON.stringify(requestToDict(request, spider));
        } catch (error) {
          this.#logger.error(`Cannot hand ${request.toString()} to a worker: ${(error as Error).message}`);
          this.inner.acknowledge(request);
          return true;
        }
        slot.take(start, this.random);
        const id = String(++this.#nextLease);
        this.#leases.set(id, { request, worker, slot });
        leased.push({ id, json });
        return true;
      };
      if (this.#parked.length > 0) {
        const still: Request[] = [];
        for (const request of this.#parked) if (leased.length >= count || !give(request)) still.push(request);
        this.#parked = still;
      }
      while (leased.length < count && this.#parked.length < PARKED_MAX) {
        const request = this.inner.next();
        if (request === undefined) break;
        if (!give(request)) this.#parked.push(request);
      }
    }
    if (leased.length < count) this.#hungry.add(worker);
    return { counts: this.#counts(now), leased };
  }

  #ack(id: string, outcome: 'done' | 'failed', delay: number | null, items: readonly string[]): boolean {
    for (const item of items) this.#exportItem(JSON.parse(item) as unknown);
    this.#workerItems += items.length;
    // Counted here, as the items arrive: the workers' stats come a second late.
    if (this.#limits.items > 0 && items.length > 0 && this.#workerItems >= this.#limits.items) this.#closeFor('closespider_itemcount');
    if (id === '') return true;
    const lease = this.#leases.get(id);
    if (lease === undefined) return false;
    this.#leases.delete(id);
    lease.slot.leased--;
    if (delay !== null) lease.slot.delayOverrideMs = delay;
    // A request torn down by a forced close stays in JOBDIR's journal (crawled again by the next run).
    if (!(this.#closing && outcome === 'failed')) this.inner.acknowledge(lease.request);
    this.#wake();
    if (this.#leases.size === 0) this.#changed.next();
    return true;
  }

  #release(ids: readonly string[]): number {
    let released = 0;
    for (const id of ids) {
      const lease = this.#leases.get(id);
      if (lease === undefined) continue;
      this.#leases.delete(id);
      lease.slot.leased--;
      released++;
      // While closing, a JOBDIR keeps it in its journal for the next run; without one it is dropped, as in one process.
      if (!this.#closing) this.#parked.unshift(lease.request);
    }
    if (released > 0) {
      this.#wake();
      this.#changed.next();
    }
    return released;
  }

  #counts(now: number): LeaseReply['counts'] {
    let nextReadyMs = -1;
    for (const request of this.#parked) {
      const ready = this.#slotOf(request).readyIn(now);
      if (ready >= 0 && (nextReadyMs < 0 || ready < nextReadyMs)) nextReadyMs = ready;
      if (nextReadyMs === 0) break;
    }
    const pending = this.hasPending();
    return {
      queued: pending ? this.#parked.length + this.inner.size : 0,
      leases: this.#closing ? 0 : this.#leases.size,
      startState: this.#startDone ? 'done' : 'seeding',
      startAlive: !this.#startDone && !this.#closing,
      paused: false,
      nextReadyMs,
    };
  }

  #slotOf(request: Request): SlotSchedule {
    return this.#slot(this.slots.slotKey(request));
  }

  #slot(key: string): SlotSchedule {
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = new SlotSchedule(this.slots.limitsOf(key));
      this.#slots.set(key, slot);
    }
    return slot;
  }

  /**
   * A worker's stats snapshot (every second, and once more as it closes):
   * what its counters gained since the last one is added to this crawl's
   * stats, so the log's `Crawled N pages`, the dashboard and the final dump
   * count every worker's pages. Peaks and floors (`…max`, `…min`,
   * `memusage/…`) keep the extreme, as src/frontier/merge-stats.ts merges
   * them; the queue's counts and the clock are this process's own.
   */
  #addStats(worker: number, snapshot: Record<string, unknown> | null): void {
    if (snapshot === null) return;
    let applied = this.#applied.get(worker);
    if (applied === undefined) this.#applied.set(worker, (applied = new Map()));
    const stats = this.crawler.stats;
    for (const [key, value] of Object.entries(snapshot)) {
      if (typeof value !== 'number' || COORDINATOR_KEYS.test(key)) continue;
      if (/max$/i.test(key)) stats.max(key, value);
      else if (/min$/i.test(key)) stats.min(key, value);
      else {
        const delta = value - (applied.get(key) ?? 0);
        if (delta !== 0) stats.inc(key, delta);
        applied.set(key, value);
      }
    }
    this.#checkLimits();
  }

  /** CLOSESPIDER_PAGECOUNT and _ERRORCOUNT over all workers, from the stats they send every second. */
  #checkLimits(): void {
    const stats = this.crawler.stats.getAll();
    if (this.#limits.pages > 0 && Number(stats['response_received_count'] ?? 0) >= this.#limits.pages) this.#closeFor('closespider_pagecount');
    if (this.#limits.errors > 0) {
      let errors = 0;
      for (const [key, value] of Object.entries(stats)) if (key.startsWith('spider_exceptions/') && typeof value === 'number') errors += value;
      if (errors >= this.#limits.errors) this.#closeFor('closespider_errorcount');
    }
  }

  #closeFor(reason: string): void {
    if (!this.#closing) this.crawler.close(reason);
  }

  /** Tells the workers whose last lease came back short that there may be more now. */
  #wake(): void {
    for (const worker of this.#hungry) this.processes.send(worker, { op: 'wake' });
    this.#hungry.clear();
  }
}

/** How long a finished crawl waits for its workers to see the end themselves (they ask every 200 ms at most) before telling them to stop. */
const FINISH_GRACE_MS = 5000;

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true as const), late]);
  clearTimeout(timer);
  return settled;
}

function parseStats(text: string): Record<string, unknown> | null {
  try {
    return text === '' ? null : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return null;
  }
}
