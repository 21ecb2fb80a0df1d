import type { Settings } from '../settings/index.js';
import type { Request } from '../http/request.js';
import { SettingsError } from '../settings/settings-error.js';
import { DownloadSlot } from './download-slot.js';
import { settingAtLeast } from '../settings/setting-at-least.js';
import { urlHostname } from './slot-key.js';

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
  }

  /**
   * Reads CONCURRENT_REQUESTS, CONCURRENT_REQUESTS_PER_DOMAIN,
   * CONCURRENT_REQUESTS_PER_IP, DOWNLOAD_DELAY, RANDOMIZE_DOWNLOAD_DELAY and
   * the spider's `downloadDelay` (seconds) and `maxConcurrentRequests`,
   * which win over the settings as in Scrapy.
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
    const wait = Math.max(slot.delayLeft(now), this.#retryLeft(request, now));
    return wait > 0 ? wait : true;
  }

  /**
   * Records when a request was scheduled, so a retry's `meta.retry_delay_ms`
   * counts from then. Without this call it counts from the first `canStart`.
   */
  scheduled(request: Request, now: number): void {
    const delay = retryDelay(request);
    if (delay > 0) this.#notBefore.set(request, now + delay);
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

  /** Every slot, by key (engine status). */
  get slots(): ReadonlyMap<string, DownloadSlot> {
    return this.#slots;
  }

  #slot(key: string): DownloadSlot {
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = new DownloadSlot(key, this.#slotConcurrency, this.#delayMs, this.#randomize);
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
      if (slot.active.size === 0 && slot.lastStart + slot.delayMs < now - GC_INTERVAL_MS) this.#slots.delete(key);
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
