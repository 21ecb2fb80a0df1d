import type { Settings } from '../settings/index.js';
import type { Request } from '../http/request.js';
import { SettingsError } from '../settings/settings-error.js';
import { DownloadSlot } from './download-slot.js';
import { settingAtLeast } from '../settings/setting-at-least.js';
import { urlHostname } from './slot-key.js';
import { readSlotSettings, type SlotOverrides } from './slot-settings.js';
import type { SharedRate } from './shared-rate.js';
import { rateLeft, rateStarted } from './slot-rate.js';

export interface DownloadSlotsOptions {
  /** CONCURRENT_REQUESTS: requests in flight at most, over all slots; default 16. */
  readonly concurrentRequests?: number;
  /** CONCURRENT_REQUESTS_PER_DOMAIN: in flight per slot; default 8. */
  readonly concurrentRequestsPerDomain?: number;
  /** CONCURRENT_REQUESTS_PER_IP: when > 0, slots are per IP address with this concurrency; default 0. */
  readonly concurrentRequestsPerIp?: number;
  /** Per-slot concurrency that overrides both (a spider's `maxConcurrentRequests`). */
  readonly slotConcurrency?: number;
  /** DOWNLOAD_DELAY in milliseconds between two starts in one slot; default 0. */
  readonly downloadDelayMs?: number;
  /** RANDOMIZE_DOWNLOAD_DELAY: wait 0.5–1.5 × the delay; default true. */
  readonly randomizeDownloadDelay?: boolean;
  /** A number in [0, 1); default Math.random. */
  readonly random?: () => number;
  /** Cached DNS lookup for per-IP slots: the host's address, or undefined to key by host name (Scrapy's dnscache). */
  readonly resolveHost?: (host: string) => string | undefined;
  /** DOWNLOAD_SLOTS, read (readSlotSettings): per-slot values that win over the ones above. */
  readonly slotSettings?: ReadonlyMap<string, SlotOverrides>;
  /** The clock a shared rate's reply is placed on (the engine's `now`); default Date.now. */
  readonly clock?: () => number;
}


/** The meta key of a request's slot, as Scrapy's `Downloader.DOWNLOAD_SLOT`. */
export const DOWNLOAD_SLOT = 'download_slot';
/** The meta key of a retry's backoff in milliseconds (set by the retry stage). */
export const RETRY_DELAY_MS = 'retry_delay_ms';

// Scrapy's _slot_gc: every 60 s, forget slots idle for more than 60 s past their delay.
const GC_INTERVAL_MS = 60_000;

/**
 * Scrapy's downloader slots as a pure decision: the engine asks
 * `canStart(request, now)` and, on `true`, starts the download and calls
 * `started`; on a number it waits that many milliseconds (`Infinity`: until
 * some request `finished`) and asks again. No timers inside; the clock is
 * the `now` the engine passes.
 */
export class DownloadSlots {
  readonly #slots = new Map<string, DownloadSlot>();
  /** Every request in flight → its slot. */
  readonly #active = new Map<Request, DownloadSlot>();
  /** When a delayed retry may start, by request (set on first sight or by `scheduled`). */
  readonly #notBefore = new WeakMap<Request, number>();
  readonly #concurrentRequests: number;
  readonly #slotConcurrency: number;
  readonly #perIp: boolean;
  #delayMs: number;
  readonly #randomize: boolean;
  readonly #random: () => number;
  readonly #resolveHost: ((host: string) => string | undefined) | undefined;
  readonly #overrides: ReadonlyMap<string, SlotOverrides>;
  readonly #clock: () => number;
  #sharedRate: SharedRate | undefined;
  /** `--workers N`: a slot's delay is spaced over every worker too, through the shared store (the coordinator). */
  #sharedDelays = false;
  readonly #pauseListeners: Array<(key: string, untilMs: number) => void> = [];
  #lastGc = Number.NEGATIVE_INFINITY;

  constructor(options: DownloadSlotsOptions = {}) {
    this.#concurrentRequests = positive('concurrentRequests', options.concurrentRequests ?? 16, 1);
    const perDomain = positive('concurrentRequestsPerDomain', options.concurrentRequestsPerDomain ?? 8, 1);
    const perIp = positive('concurrentRequestsPerIp', options.concurrentRequestsPerIp ?? 0, 0);
    this.#perIp = perIp > 0;
    this.#slotConcurrency = positive('slotConcurrency', options.slotConcurrency ?? (this.#perIp ? perIp : perDomain), 1);
    this.#delayMs = positive('downloadDelayMs', options.downloadDelayMs ?? 0, 0);
    this.#randomize = options.randomizeDownloadDelay ?? true;
    this.#random = options.random ?? Math.random;
    this.#resolveHost = options.resolveHost;
    this.#overrides = options.slotSettings ?? new Map();
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * Reads CONCURRENT_REQUESTS, CONCURRENT_REQUESTS_PER_DOMAIN,
   * CONCURRENT_REQUESTS_PER_IP, DOWNLOAD_DELAY, RANDOMIZE_DOWNLOAD_DELAY and
   * the spider's `downloadDelay` (seconds) and `maxConcurrentRequests`,
   * which win over the settings as in Scrapy; then DOWNLOAD_SLOTS, whose
   * per-slot values win over all of them (checked here, when the crawl starts).
   */
  static fromCrawler(crawler: { readonly settings: Settings; readonly spider: object }, extra: Pick<DownloadSlotsOptions, 'random' | 'resolveHost'> = {}): DownloadSlots {
    const { settings } = crawler;
    const spider = crawler.spider as { downloadDelay?: unknown; maxConcurrentRequests?: unknown };
    const concurrentRequests = settingAtLeast(settings, 'CONCURRENT_REQUESTS', settings.getInt('CONCURRENT_REQUESTS'), 1,
      'it caps the requests downloading at once, and 0 would download nothing');
    const perDomain = settingAtLeast(settings, 'CONCURRENT_REQUESTS_PER_DOMAIN', settings.getInt('CONCURRENT_REQUESTS_PER_DOMAIN'), 1,
      'it caps the requests downloading at once from one domain, and 0 would download nothing');
    const perIp = settingAtLeast(settings, 'CONCURRENT_REQUESTS_PER_IP', settings.getInt('CONCURRENT_REQUESTS_PER_IP'), 0,
      'use 0 to limit per domain instead');
    let delaySeconds = settingAtLeast(settings, 'DOWNLOAD_DELAY', settings.getFloat('DOWNLOAD_DELAY'), 0,
      'it is the number of seconds to wait between two requests to one domain');
    if (spider.downloadDelay !== undefined) delaySeconds = spiderNumber('downloadDelay', spider.downloadDelay, 0, 'seconds between two requests to one domain');
    return new DownloadSlots({
      concurrentRequests,
      concurrentRequestsPerDomain: perDomain,
      concurrentRequestsPerIp: perIp,
      slotConcurrency:
        spider.maxConcurrentRequests === undefined
          ? undefined
          : spiderNumber('maxConcurrentRequests', spider.maxConcurrentRequests, 1, 'requests in flight per domain'),
      downloadDelayMs: delaySeconds * 1000,
      randomizeDownloadDelay: settings.getBool('RANDOMIZE_DOWNLOAD_DELAY'),
      slotSettings: readSlotSettings(settings.getDict('DOWNLOAD_SLOTS'), settings.getSource('DOWNLOAD_SLOTS')),
      ...extra,
    });
  }

  /** The slot a request downloads in: `meta.download_slot`, else its host (or IP, per CONCURRENT_REQUESTS_PER_IP). */
  slotKey(request: Request): string {
    const fixed = request.meta[DOWNLOAD_SLOT];
    if (fixed !== undefined && fixed !== null) return String(fixed);
    const host = urlHostname(request.url);
    if (!this.#perIp) return host;
    return this.#resolveHost?.(host) ?? host;
  }

  /**
   * `true` when `request` may start now; otherwise the milliseconds to wait
   * before asking again: `Infinity` while CONCURRENT_REQUESTS or the slot's
   * concurrency is used up (ask again when a request finishes), a finite
   * number while DOWNLOAD_DELAY or a retry's `meta.retry_delay_ms` runs.
   */
  canStart(request: Request, now: number): true | number {
    if (this.#active.size >= this.#concurrentRequests) return Number.POSITIVE_INFINITY;
    const slot = this.#slot(this.slotKey(request));
    if (slot.active.size >= slot.concurrency) return Number.POSITIVE_INFINITY;
    const wait = Math.max(slot.delayLeft(now), slot.pauseLeft(now), this.#retryLeft(request, now));
    if (wait > 0) return wait;
    // The rate last: a shared one reserves a start over all workers, which only a request free to go should take.
    const rateWait = rateLeft(slot, now, this.#sharedRate, this.#clock, this.#intervalOf(slot));
    return rateWait > 0 ? rateWait : true;
  }

  /**
   * Records when a request was scheduled, so a retry's `meta.retry_delay_ms`
   * counts from then. Without this call it counts from the first `canStart`.
   */
  scheduled(request: Request, now: number): void {
    const delay = retryDelay(request);
    if (delay > 0) this.#notBefore.set(request, now + delay);
  }

  /** What slot `key` allows (its DOWNLOAD_SLOTS values over the crawl-wide ones): what the coordinator of `--workers` enforces over all workers. */
  limitsOf(key: string): { readonly concurrency: number; readonly delayMs: number; readonly randomizeDelay: boolean } {
    const slot = this.#slot(key);
    return { concurrency: slot.concurrency, delayMs: slot.delayMs, randomizeDelay: slot.randomizeDelay };
  }

  /** The engine started downloading `request` (after `canStart` said true). Sets `meta.download_slot`, as Scrapy. */
  started(request: Request, now: number): void {
    if (this.#active.has(request)) return;
    const key = this.slotKey(request);
    const slot = this.#slot(key);
    request.meta[DOWNLOAD_SLOT] = key;
    slot.active.add(request);
    slot.lastStart = now;
    slot.delayFactor = slot.randomizeDelay ? 0.5 + this.#random() : 1;
    rateStarted(slot, now, this.#intervalOf(slot));
    this.#active.set(request, slot);
    this.#notBefore.delete(request);
    this.#collect(now);
  }

  /** The download of `request` ended (response, error or abort). Unknown requests are ignored. */
  finished(request: Request, now: number): void {
    const slot = this.#active.get(request);
    if (slot === undefined) return;
    this.#active.delete(request);
    slot.active.delete(request);
    this.#collect(now);
  }

  /** Requests in flight over all slots. */
  get active(): number {
    return this.#active.size;
  }

  /** Requests in flight in one slot (for DownloaderAwarePriorityQueue). */
  activeIn(key: string): number {
    return this.#slots.get(key)?.active.size ?? 0;
  }

  /** A slot by key, if it exists (an AutoThrottle changes its `delayMs`). */
  slot(key: string): DownloadSlot | undefined {
    return this.#slots.get(key);
  }

  /**
   * The delay, in milliseconds, a slot gets when it is created (Scrapy's
   * spider `download_delay`): DOWNLOAD_DELAY until AutoThrottle sets its
   * start delay here. Slots that exist keep theirs.
   */
  get newSlotDelayMs(): number {
    return this.#delayMs;
  }

  set newSlotDelayMs(ms: number) {
    this.#delayMs = positive('newSlotDelayMs', ms, 0);
  }

  /**
   * No request of slot `key` starts before `untilMs` (the engine's clock,
   * ms since the epoch): a 429 or 503 whose `Retry-After` asks the whole
   * site to wait. A later pause extends it; an earlier one changes nothing.
   * Returns true when this call moved the end of the pause.
   */
  pauseSlot(key: string, untilMs: number): boolean {
    const slot = this.#slot(key);
    if (!(untilMs > slot.pausedUntil)) return false;
    slot.pausedUntil = untilMs;
    for (const listener of this.#pauseListeners) listener(key, untilMs);
    return true;
  }

  /** Calls `listener` each time a pause begins or is extended (the shared frontier passes it on to the other workers). */
  whenPaused(listener: (key: string, untilMs: number) => void): void {
    this.#pauseListeners.push(listener);
  }

  /**
   * Shares the `rate` of DOWNLOAD_SLOTS over every worker of a crawl
   * (SCHEDULER = 'redis'): from now on each start of a slot with a rate is
   * reserved in `shared` first.
   */
  shareRates(shared: SharedRate, options: { delays?: boolean } = {}): void {
    this.#sharedRate = shared;
    this.#sharedDelays = options.delays === true;
  }

  /**
   * The spacing a slot's starts keep over every worker: its `rate`; with
   * shared delays (`--workers N`), else its delay (DOWNLOAD_DELAY or
   * AutoThrottle's, with the last start's random factor). 0: none.
   */
  #intervalOf(slot: DownloadSlot): number {
    if (slot.rateIntervalMs > 0 || !this.#sharedDelays) return slot.rateIntervalMs;
    return slot.delayMs * slot.delayFactor;
  }

  /** True when some DOWNLOAD_SLOTS entry has a `rate` (only then is a shared store worth connecting). */
  get hasRates(): boolean {
    for (const overrides of this.#overrides.values()) if (overrides.rateIntervalMs !== undefined) return true;
    return false;
  }

  /** Every slot, by key (engine status). */
  get slots(): ReadonlyMap<string, DownloadSlot> {
    return this.#slots;
  }

  #slot(key: string): DownloadSlot {
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      // Scrapy's order: the crawl-wide values (AutoThrottle's start delay among them), then the slot's own.
      const own = this.#overrides.get(key);
      slot = new DownloadSlot(
        key,
        own?.concurrency ?? this.#slotConcurrency,
        own?.delayMs ?? this.#delayMs,
        own?.randomizeDelay ?? this.#randomize,
        own?.delayMs ?? 0,
        own?.rateIntervalMs ?? 0,
      );
      this.#slots.set(key, slot);
    }
    return slot;
  }

  #retryLeft(request: Request, now: number): number {
    let notBefore = this.#notBefore.get(request);
    if (notBefore === undefined) {
      const delay = retryDelay(request);
      if (delay <= 0) return 0;
      notBefore = now + delay;
      this.#notBefore.set(request, notBefore);
    }
    return notBefore - now;
  }

  #collect(now: number): void {
    if (now - this.#lastGc < GC_INTERVAL_MS) return;
    this.#lastGc = now;
    for (const [key, slot] of this.#slots) {
      const idle = slot.active.size === 0 && !slot.reserving && slot.lastStart + slot.delayMs < now - GC_INTERVAL_MS;
      if (idle && slot.pausedUntil < now && slot.rateNext < now) this.#slots.delete(key);
    }
  }
}

function retryDelay(request: Request): number {
  const delay = request.meta[RETRY_DELAY_MS];
  return typeof delay === 'number' && delay > 0 ? delay : 0;
}

function positive(name: string, value: number, min: number): number {
  if (typeof value === 'number' && value >= min) return value;
  throw new RangeError(`DownloadSlots option ${name} must be a number ≥ ${min}, got ${String(value)}`);
}

function spiderNumber(name: string, value: unknown, min: number, meaning: string): number {
  if (typeof value === 'number' && value >= min) return value;
  throw new SettingsError(
    `Spider attribute ${name} must be a number ≥ ${min} (${meaning}), got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
  );
}
