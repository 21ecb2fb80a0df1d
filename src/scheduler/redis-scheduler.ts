import { RedisUnreachableError } from '../frontier/frontier-errors.js';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Subject, type Observable } from 'rxjs';
import type { Crawler } from '../contracts/crawler.js';
import type { AcknowledgesRequests, EngineScheduler, JournaledScheduler, KeepsQueueAtClose, SharedQueue } from '../contracts/scheduler.js';
import type { Request } from '../http/request.js';
import type { Logger } from '../log/index.js';
import { requestFromDict, requestToDict } from './request-dict.js';
import { RequestSerializationError } from './jobdir-errors.js';
import { FingerprintSet } from './fingerprint-set.js';
import { queueOrderSetting } from './queue-settings.js';
import { jobdirSetting } from './jobdir-setting.js';
import { DUPEFILTER_LOGGER, SCHEDULER_LOGGER } from './scheduler.js';
import { toExportValue } from '../feeds/export-value.js';
import { bloomOffsets } from '../frontier/bloom.js';
import { FrontierClient, type FrontierCounts, type PushEntry } from '../frontier/frontier-client.js';
import type { FrontierLink } from '../frontier/frontier-link.js';
import { frontierSettings, type FrontierSettings } from '../frontier/frontier-settings.js';
import { joinMessage } from '../frontier/join-message.js';

/** The shared frontier's logger. */
export const FRONTIER_LOGGER = 'seine.frontier';

/** What the Redis scheduler needs besides the crawler. */
export interface RedisSchedulerDependencies {
  readonly fingerprint: (request: Request) => string;
  /** The download slot of a request: the frontier's politeness is per slot. */
  readonly slotKey?: (request: Request) => string;
  /** A slot's current delay in this worker (AutoThrottle's), shared with the others. */
  readonly slotDelayMs?: (slot: string) => number | undefined;
  /**
   * Another frontier than Redis (`--workers N`: the IPC link to the local
   * coordinator), with the line that says so at open. Its items always
   * travel with the acknowledgements (the coordinator writes the feeds).
   */
  readonly link?: { readonly client: FrontierLink; readonly joined: string };
}

/** How often a worker of `--workers N` sends its stats to the coordinator. */
const LINK_STATS_MS = 1000;

/** The fastest and the slowest poll of an empty queue while the crawl is not over. */
const POLL_MIN_MS = 20;
// An idle worker asks again at most this long after another worker's push: 5 LEASE calls a second per idle
// worker is nothing for Redis, and a longer wait slowed a crawl whose frontier is narrow (bench:distributed).
const POLL_MAX_MS = 200;

/**
 * The shared frontier (SCHEDULER = 'redis'): one queue, one duplicate
 * filter and one start for every worker on the same spider and REDIS_URL
 * (docs/distributed.md). The engine drives it synchronously, as any
 * scheduler; behind that:
 *
 * - requests a worker yields are checked against the local cache of seen
 *   fingerprints, batched, and pushed (PUSH: filtered and queued in one step);
 * - the worker leases requests (LEASE) ahead of need, up to its
 *   CONCURRENT_REQUESTS, keeping them in a local buffer the engine takes from;
 * - a request's lease ends (ACK) when its ticket closes — its callback's
 *   requests pushed, its items written — and is renewed (RENEW) meanwhile;
 *   a worker that dies stops renewing, and its leases go back to the queue
 *   after REDIS_LEASE_SECS;
 * - the crawl is over for this worker when the queue is empty, no lease is
 *   out anywhere and nobody is still running start().
 */
export class RedisScheduler implements EngineScheduler, AcknowledgesRequests, KeepsQueueAtClose, SharedQueue, JournaledScheduler {
  /** Items are committed per request, with its acknowledgement (the engine holds them until the ticket closes). */
  readonly journaled = true;
  readonly worker: string;
  readonly changed$: Observable<void>;
  readonly #changed = new Subject<void>();
  readonly #client: FrontierLink;
  readonly #shareItems: boolean;
  readonly #settings: FrontierSettings;
  readonly #crawler: Crawler;
  readonly #deps: RedisSchedulerDependencies;
  readonly #logger: Logger;
  readonly #dupeLogger: Logger;
  readonly #lifo: boolean;
  readonly #concurrency: number;
  readonly #slotConcurrency: number;
  readonly #delayMs: number;
  readonly #randomizeDelay: boolean;
  /** Fingerprints Redis has already seen: a repeat is filtered without asking it. */
  readonly #seen = new FingerprintSet();
  /** Leased and not yet handed to the engine. */
  #buffer: Array<{ id: string; request: Request }> = [];
  /** Every lease this worker holds: handed out and not acknowledged, or buffered. */
  readonly #leases = new Map<Request, string>();
  readonly #bufferedIds = new Set<string>();
  /** Requests that cannot be stored in Redis (a callback that is not a spider method, meta that is not JSON): crawled here only. */
  #local: Request[] = [];
  #pushBatch: PushEntry[] = [];
  #pushBatchRequests: Request[] = [];
  #pushesInFlight = 0;
  #pushTimer: ReturnType<typeof setImmediate> | null = null;
  #counts: FrontierCounts | null = null;
  #startOffset = 0;
  #seeding = false;
  #closing = false;
  #closed = false;
  #pumping = false;
  #pumpWanted = false;
  #pollMs = POLL_MIN_MS;
  #pollTimer: ReturnType<typeof setTimeout> | null = null;
  #renewTimer: ReturnType<typeof setInterval> | null = null;
  readonly #inFlight = new Set<Promise<unknown>>();
  /** Leases whose reply came after the close had begun giving leases back: released with the last ones. */
  readonly #lateLeases: string[] = [];
  readonly #reportedDelay = new Map<string, number>();
  #logDuplicates = true;
  #logUnserializable = true;
  #warnedLost = false;
  /** This worker ran start() to its end and Redis has recorded it. */
  #startRecorded = false;

  constructor(crawler: Crawler, dependencies: RedisSchedulerDependencies) {
    this.#crawler = crawler;
    this.#deps = dependencies;
    const { settings } = crawler;
    this.#settings = frontierSettings(settings, crawler.spider.name);
    this.#lifo = queueOrderSetting(settings) === 'lifo';
    this.#concurrency = Math.max(1, settings.getInt('CONCURRENT_REQUESTS'));
    this.#slotConcurrency = Math.max(1, settings.getInt('CONCURRENT_REQUESTS_PER_DOMAIN'));
    this.#delayMs = Math.max(0, settings.getFloat('DOWNLOAD_DELAY') * 1000);
    this.#randomizeDelay = settings.getBool('RANDOMIZE_DOWNLOAD_DELAY');
    this.#logger = crawler.logBus.getLogger(FRONTIER_LOGGER);
    this.#dupeLogger = crawler.logBus.getLogger(DUPEFILTER_LOGGER);
    this.worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.#shareItems = dependencies.link !== undefined || this.#settings.shareItems;
    this.#client = dependencies.link?.client ?? new FrontierClient(this.#settings.url, this.#settings.keyPrefix, {
      onConnectionLost: (reason) => {
        crawler.stats.inc('frontier/connection_lost');
        this.#logger.warning(`Lost the connection to Redis at ${this.#settings.safeUrl} (${reason}): waiting for it to come back; leases and results are kept and sent then`);
      },
      onReconnected: () => this.#logger.info(`Reconnected to Redis at ${this.#settings.safeUrl}`),
    });
    this.changed$ = this.#changed.asObservable();
    this.#client.onWake?.(() => this.#kick());
  }

  static fromCrawler(crawler: Crawler, dependencies: RedisSchedulerDependencies): RedisScheduler {
    return new RedisScheduler(crawler, dependencies);
  }

  /**
   * Connects (a clear error when Redis cannot be reached within
   * REDIS_CONNECT_TIMEOUT), joins the crawl, and learns whether this worker
   * runs start(): only the first worker of a crawl does, and a later one
   * takes over where a dead one stopped.
   */
  async open(): Promise<void> {
    const { safeUrl, connectTimeoutMs, leaseMs } = this.#settings;
    try {
      await this.#client.connect(connectTimeoutMs);
    } catch (error) {
      throw new RedisUnreachableError(safeUrl, (error as Error).message, { cause: error });
    }
    const claim = await this.#client.claimStart(this.worker, leaseMs);
    const prefix = this.#settings.keyPrefix;
    const link = this.#deps.link;
    if (link !== undefined) this.#logger.info(link.joined);
    else this.#logger.info(`Sharing the crawl through Redis at ${safeUrl} (keys ${prefix}*) as worker ${this.worker}`);
    if (link === undefined && jobdirSetting(this.#crawler.settings) !== null) {
      this.#logger.warning('JOBDIR keeps no requests with SCHEDULER=redis (only spider.state): the queue and the duplicate filter are in Redis, and outlive every worker');
    }
    if (claim.state === 'mine') {
      this.#seeding = true;
      this.#startOffset = claim.count;
      if (claim.count > 0) this.#logger.info(`Taking over start() from a worker that stopped: skipping its first ${claim.count} outputs`);
    } else {
      this.#startOffset = Number.POSITIVE_INFINITY;
      if (link === undefined) this.#logger.info(joinMessage(this.#crawler.spider.name, claim.state === 'done' ? { state: 'done', ...(await this.#client.pending()) } : { state: 'busy' }));
    }
    // Under a coordinator leases do not expire: a renewal carries this worker's stats, kept fresh in case it dies.
    this.#renewTimer = setInterval(() => this.#renew(), this.#deps.link !== undefined ? LINK_STATS_MS : Math.max(200, Math.floor(leaseMs / 3)));
    this.#renewTimer.unref();
    this.#kick();
  }

  /** Outputs of start() recorded by earlier workers; Infinity when another worker runs (or ran) it. */
  get startOffset(): number {
    return this.#startOffset;
  }

  recordStart(count: number): void {
    if (!this.#seeding) return;
    this.#flushPushes();
    this.#track(this.#client.recordStart(this.worker, count, false));
  }

  /** start() has ended in this worker (complete: it ran to its end, not stopped by the close). */
  finishStart(complete: boolean): void {
    if (!this.#seeding || !complete) return;
    this.#flushPushes();
    this.#track(
      this.#client.recordStart(this.worker, Number.MAX_SAFE_INTEGER, true).then(() => {
        this.#startRecorded = true;
        this.#kick();
      }),
    );
  }

  enqueue(request: Request): boolean {
    const fingerprint = this.#deps.fingerprint(request);
    if (!request.dontFilter && this.#seen.has(fingerprint)) {
      this.#filtered(request);
      return false;
    }
    let json: string;
    try {
      json = JSON.stringify(requestToDict(request, this.#crawler.spider));
    } catch (error) {
      if (!(error instanceof RequestSerializationError)) throw error;
      this.#unserializable(request, error);
      if (!request.dontFilter) this.#seen.add(fingerprint);
      this.#local.push(request);
      return true;
    }
    // Under a coordinator a push is not lost once sent (the channel keeps order, and the coordinator answers every call):
    // its fingerprint counts as seen at once, so a link repeated on the pages parsed before the reply is not pushed again.
    // Measured: 70,000 entries pushed for 2,000 pages without this, ~2,000 with it (docs/performance.md, "Both cores").
    if (this.#deps.link !== undefined && !request.dontFilter) this.#seen.add(fingerprint);
    const slot = this.#deps.slotKey?.(request) ?? new URL(request.url).hostname;
    const bloom = this.#settings.bloom;
    this.#pushBatch.push({
      fingerprint,
      slot,
      priority: request.priority,
      json,
      dontFilter: request.dontFilter,
      bloomBits: bloom === null || request.dontFilter ? '' : bloomOffsets(fingerprint, bloom),
    });
    this.#pushBatchRequests.push(request);
    this.#crawler.stats.inc('scheduler/enqueued/redis');
    this.#crawler.stats.inc('scheduler/enqueued');
    // Requests a callback yields in one go travel in one PUSH.
    this.#pushTimer ??= setImmediate(() => this.#flushPushes());
    return true;
  }

  /** A request yielded while this worker closes: pushed for the other workers (and later runs). */
  enqueueAfterClose(request: Request): boolean {
    if (this.#closed) return false;
    const queued = this.enqueue(request);
    this.#flushPushes();
    return queued;
  }

  next(): Request | undefined {
    if (this.#closing) return undefined;
    const local = this.#local.shift();
    if (local !== undefined) return local;
    const leased = this.#buffer.shift();
    if (this.#buffer.length < this.#concurrency) this.#kick();
    if (leased === undefined) return undefined;
    this.#bufferedIds.delete(leased.id);
    this.#crawler.stats.inc('scheduler/dequeued/redis');
    this.#crawler.stats.inc('scheduler/dequeued');
    return leased.request;
  }

  /**
   * True until the crawl is over everywhere: something is buffered or
   * being pushed here, or the frontier has queued requests, leases out, a
   * start() still running, or is paused. Unknown (not asked yet, Redis away) counts as pending.
   */
  hasPending(): boolean {
    if (this.#closing) return false;
    if (this.#buffer.length > 0 || this.#local.length > 0 || this.#pushBatch.length > 0 || this.#pushesInFlight > 0) return true;
    const counts = this.#counts;
    if (counts === null) return true;
    // Once this worker has recorded the end of its start(), the frontier's start state no longer holds it: after
    // `seine frontier … clear --force` that state is gone, and the worker would otherwise wait for ever.
    return counts.queued > 0 || counts.leases > 0 || counts.paused || counts.startAlive || (this.#seeding && !this.#startRecorded && counts.startState !== 'done');
  }

  /** The crawl is closing here: the buffered leases go back to the queue at once, for the other workers. */
  dropPending(): readonly Request[] {
    this.#closing = true;
    const ids = this.#buffer.map((entry) => entry.id);
    for (const entry of this.#buffer) this.#leases.delete(entry.request);
    this.#buffer = [];
    this.#bufferedIds.clear();
    this.#flushPushes();
    if (ids.length > 0) this.#track(this.#client.release(this.worker, false, ids).then((released) => this.#crawler.stats.inc('frontier/leases_released', released)));
    // What was only here (unserializable requests) is dropped, as with the scheduler of one process.
    const forgotten = this.#local;
    this.#local = [];
    return forgotten;
  }

  /**
   * The request's ticket closed. Its pushes go first (on the same
   * connection, so Redis has them before the acknowledgement); then the
   * lease ends with its items. A request torn down by the close (a forced
   * stop) goes back to the queue instead.
   */
  acknowledge(request: Request, outcome: 'done' | 'failed', items: readonly unknown[] = []): void {
    const id = this.#leases.get(request);
    if (id === undefined) {
      // Crawled here only: under a coordinator its items still go to the one set of feeds.
      if (this.#deps.link !== undefined && items.length > 0) this.#track(this.#client.ack(this.worker, '', outcome, null, items.map((item) => JSON.stringify(toExportValue(item)))));
      return;
    }
    this.#leases.delete(request);
    this.#flushPushes();
    if (this.#closing && outcome === 'failed') {
      this.#track(this.#client.release(this.worker, false, [id]).then((released) => this.#crawler.stats.inc('frontier/leases_released', released)));
      return;
    }
    const slot = this.#deps.slotKey?.(request);
    let delay: number | null = null;
    if (slot !== undefined) {
      const current = this.#deps.slotDelayMs?.(slot);
      if (current !== undefined && current !== this.#reportedDelay.get(slot)) {
        this.#reportedDelay.set(slot, current);
        delay = Math.round(current);
      }
    }
    const shared = this.#shareItems ? items.map((item) => JSON.stringify(toExportValue(item))) : [];
    this.#track(
      this.#client.ack(this.worker, id, outcome, delay, shared).then((mine) => {
        if (!mine) this.#leaseLost(request);
        this.#kick();
      }),
    );
  }

  /**
   * No worker leases from `slot` for `ms` milliseconds (a 429/503's
   * Retry-After this worker got, DownloadSlots.pauseSlot): the others stop
   * taking that site's requests too. What they hold already still goes out,
   * and pauses them when it is refused in turn.
   */
  pauseSlot(slot: string, ms: number): void {
    if (this.#closed || !(ms > 0)) return;
    this.#track(this.#client.pauseSlot(slot, ms));
  }

  /** Stops polling and renewing, gives back every lease still held, stores the final stats, and disconnects. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closing = true;
    this.#closed = true;
    if (this.#renewTimer !== null) clearInterval(this.#renewTimer);
    if (this.#pollTimer !== null) clearTimeout(this.#pollTimer);
    this.#flushPushes();
    await this.#settle(5000);
    await this.#pumpDone();
    const held = [...this.#leases.values(), ...this.#buffer.map((entry) => entry.id), ...this.#lateLeases];
    this.#leases.clear();
    this.#buffer = [];
    const counts = this.#counts;
    if (!this.#seeding && counts !== null && counts.startState === 'seeding' && !counts.startAlive) {
      this.#logger.warning("This crawl's start() did not run to its end (the worker running it stopped): start another worker to finish it");
    }
    if (this.#client.connected) {
      try {
        const released = await this.#client.release(this.worker, true, held);
        if (released > 0) this.#crawler.stats.inc('frontier/leases_released', released);
        await this.#client.renew(this.worker, 0, this.#statsSnapshot(), []);
        await this.#client.leave(this.worker);
      } catch (error) {
        this.#logger.warning(`Could not give the last leases back to Redis (${(error as Error).message}): they return to the queue after REDIS_LEASE_SECS`);
      }
    } else if (held.length > 0) {
      this.#logger.warning(`Redis at ${this.#settings.safeUrl} is unreachable: ${held.length} leased requests return to the queue after REDIS_LEASE_SECS`);
    }
    await this.#client.quit();
  }

  /** Resolves once no lease call is running (its reply may hold leases to give back). */
  async #pumpDone(): Promise<void> {
    for (let waited = 0; this.#pumping && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Waits for the calls in flight, at most `timeoutMs`. */
  async #settle(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#inFlight.size > 0 && Date.now() < deadline) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.allSettled([...this.#inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now())))]);
      clearTimeout(timer);
    }
  }

  #track(call: Promise<unknown>): void {
    const tracked = call.catch((error: unknown) => {
      if (this.#closed && this.#client.ended) return;
      this.#crawler.stats.inc('frontier/errors');
      this.#logger.error(`A call to Redis failed: ${(error as Error).message}`);
    });
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }

  #flushPushes(): void {
    if (this.#pushTimer !== null) {
      clearImmediate(this.#pushTimer);
      this.#pushTimer = null;
    }
    if (this.#pushBatch.length === 0) return;
    const entries = this.#pushBatch;
    const requests = this.#pushBatchRequests;
    this.#pushBatch = [];
    this.#pushBatchRequests = [];
    this.#pushesInFlight++;
    this.#track(
      this.#client.push(this.#lifo, entries).then(
        (fresh) => {
          this.#pushesInFlight--;
          fresh.forEach((queued, index) => {
            const entry = entries[index]!;
            if (!entry.dontFilter) this.#seen.add(entry.fingerprint);
            if (queued === 0) {
              // Another worker queued it first: dropped after the engine had counted it as scheduled.
              const request = requests[index]!;
              this.#crawler.stats.inc('scheduler/enqueued/redis', -1);
              this.#crawler.stats.inc('scheduler/enqueued', -1);
              this.#filtered(request);
              this.#crawler.emit({ type: 'request_dropped', request, reason: 'duplicate' });
            }
          });
          this.#kick();
        },
        (error: unknown) => {
          this.#pushesInFlight--;
          throw error;
        },
      ),
    );
  }

  /** Asks for more leases now (or soon), unless a lease call is already running. */
  #kick(): void {
    if (this.#closing) return;
    if (this.#pumping) {
      this.#pumpWanted = true;
      return;
    }
    if (this.#pollTimer !== null) {
      clearTimeout(this.#pollTimer);
      this.#pollTimer = null;
    }
    this.#pumping = true;
    void this.#pump().finally(() => {
      this.#pumping = false;
      if (this.#pumpWanted) {
        this.#pumpWanted = false;
        this.#kick();
      }
    });
  }

  async #pump(): Promise<void> {
    const want = Math.min(this.#concurrency - this.#buffer.length, 2 * this.#concurrency - this.#leases.size);
    const factor = this.#randomizeDelay ? 0.5 + Math.random() : 1;
    let reply;
    try {
      reply = await this.#client.lease(this.worker, Math.max(0, want), this.#settings.leaseMs, this.#slotConcurrency, this.#delayMs, factor);
    } catch (error) {
      if (!this.#closed) {
        this.#crawler.stats.inc('frontier/errors');
        this.#logger.error(`Could not lease requests from Redis: ${(error as Error).message}`);
        this.#poll(POLL_MAX_MS);
      }
      return;
    }
    const wasPending = this.hasPending();
    this.#counts = reply.counts;
    if (this.#closing) {
      // Leased while this worker began to close: straight back to the queue, for the others.
      const ids = reply.leased.map((entry) => entry.id);
      if (ids.length > 0 && !this.#closed) this.#track(this.#client.release(this.worker, false, ids).then((released) => this.#crawler.stats.inc('frontier/leases_released', released)));
      else for (const id of ids) this.#lateLeases.push(id);
      return;
    }
    for (const { id, json } of reply.leased) {
      let request: Request;
      try {
        request = requestFromDict(JSON.parse(json) as never, this.#crawler.spider);
      } catch (error) {
        // A request another version of the spider stored: it cannot be crawled by this one.
        this.#logger.error(`Cannot read leased request ${id}: ${(error as Error).message}`);
        this.#crawler.stats.inc('frontier/unreadable');
        this.#track(this.#client.ack(this.worker, id, 'failed', null, []));
        continue;
      }
      this.#buffer.push({ id, request });
      this.#bufferedIds.add(id);
      this.#leases.set(request, id);
      this.#crawler.stats.inc('frontier/leased');
    }
    if (reply.leased.length > 0) {
      this.#pollMs = POLL_MIN_MS;
      this.#changed.next();
      if (reply.leased.length >= want) return;
    }
    if (wasPending !== this.hasPending()) this.#changed.next();
    if (!this.hasPending()) return;
    // Nothing (more) to lease now: ask again when the next slot is ready, or soon.
    const wait = reply.counts.nextReadyMs >= 0 && reply.counts.queued > 0 ? Math.max(POLL_MIN_MS, Math.min(reply.counts.nextReadyMs, POLL_MAX_MS)) : this.#pollMs;
    this.#pollMs = Math.min(POLL_MAX_MS, this.#pollMs * 2);
    this.#poll(wait);
  }

  #poll(ms: number): void {
    if (this.#closing) return;
    if (this.#pollTimer !== null) clearTimeout(this.#pollTimer);
    this.#pollTimer = setTimeout(() => {
      this.#pollTimer = null;
      this.#kick();
    }, ms);
  }

  #renew(): void {
    if (this.#closed) return;
    const ids = [...this.#leases.values()];
    this.#track(
      this.#client.renew(this.worker, this.#settings.leaseMs, this.#statsSnapshot(), ids).then((lost) => {
        if (lost.length === 0) return;
        const gone = new Set(lost);
        for (const [request, id] of this.#leases) if (gone.has(id)) this.#leaseLost(request);
      }),
    );
  }

  /** A lease this worker held went back to the queue (it was not renewed in time): another worker crawls it again. */
  #leaseLost(request: Request): void {
    this.#leases.delete(request);
    this.#crawler.stats.inc('frontier/leases_lost');
    if (this.#warnedLost) return;
    this.#warnedLost = true;
    this.#logger.warning(
      `The lease of ${request.toString()} expired before this worker finished it (the event loop or Redis was blocked longer than REDIS_LEASE_SECS): ` +
        'another worker crawls it again, so its items may be written twice — raise REDIS_LEASE_SECS if this repeats (no more such leases will be logged)',
    );
  }

  #statsSnapshot(): string {
    try {
      return JSON.stringify(this.#crawler.stats.getAll(), (_key, value: unknown) => (value instanceof Date ? value.toISOString() : value));
    } catch {
      return '';
    }
  }

  #filtered(request: Request): void {
    this.#crawler.stats.inc('dupefilter/filtered');
    if (this.#logDuplicates) {
      this.#dupeLogger.debug(`Filtered duplicate request: ${request.toString()} - no more duplicates will be shown (see DUPEFILTER_DEBUG to show all duplicates)`);
      this.#logDuplicates = false;
    }
  }

  #unserializable(request: Request, error: Error): void {
    this.#crawler.stats.inc('scheduler/unserializable');
    if (!this.#logUnserializable) return;
    this.#logUnserializable = false;
    this.#crawler.logBus
      .getLogger(SCHEDULER_LOGGER)
      .warning(`Unable to share request ${request.toString()} with the other workers - reason: ${error.message} - this worker crawls it, and it is lost if this worker stops (no more such requests will be logged)`);
  }
}
