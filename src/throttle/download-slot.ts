import type { Request } from '../http/request.js';

/**
 * One of Scrapy's downloader slots: the requests to one domain (or IP, or
 * `meta.download_slot`) in flight, with their own concurrency and delay.
 * `concurrency` and `delayMs` may be changed while the crawl runs (what an
 * AutoThrottle does); the next `canStart` sees the new values.
 */
export class DownloadSlot {
  readonly active = new Set<Request>();
  /** When the last request of this slot started (Scrapy's `lastseen`); -Infinity before the first. */
  lastStart = Number.NEGATIVE_INFINITY;
  /**
   * The 0.5–1.5 factor RANDOMIZE_DOWNLOAD_DELAY drew at the last start.
   * Scrapy draws a new one at every check; drawing once per start gives the
   * same spread, and asking twice gives the same answer.
   */
  delayFactor = 1;
  /** No request of the slot starts before this time (a 429/503's `Retry-After`, DownloadSlots.pauseSlot); -Infinity: not paused. */
  pausedUntil = Number.NEGATIVE_INFINITY;
  /** The next start a `rate` allows in this process (a bucket of one token). */
  rateNext = Number.NEGATIVE_INFINITY;
  /** Under a shared rate: the start reserved over all workers (local clock), or undefined while none is held. */
  reservedAt: number | undefined = undefined;
  /** A reservation is on its way from the shared store. */
  reserving = false;

  constructor(
    readonly key: string,
    public concurrency: number,
    public delayMs: number,
    public randomizeDelay: boolean,
    /** DOWNLOAD_SLOTS `delay` in ms: AutoThrottle never sets a lower delay. 0 without one. */
    readonly minDelayMs = 0,
    /** DOWNLOAD_SLOTS `rate` as ms between two starts; 0 without one. */
    readonly rateIntervalMs = 0,
  ) {}

  /** Milliseconds until the delay since the last start has passed (≤ 0: none left). */
  delayLeft(now: number): number {
    if (this.delayMs <= 0) return 0;
    return this.lastStart + this.delayMs * this.delayFactor - now;
  }

  /** Milliseconds until the slot's pause ends (≤ 0: not paused). */
  pauseLeft(now: number): number {
    return this.pausedUntil - now;
  }

  /** `<DownloadSlot example.com concurrency=8 delay=0.00 active=2>` for engine status (with `rate=2/s` when it has one). */
  toString(): string {
    const rate = this.rateIntervalMs > 0 ? ` rate=${formatRate(this.rateIntervalMs)}` : '';
    return `<DownloadSlot ${this.key} concurrency=${this.concurrency} delay=${(this.delayMs / 1000).toFixed(2)}${rate} active=${this.active.size}>`;
  }
}

/** 500 → '2/s', 2000 → '30/m', 7200000 → '0.5/h': per second, minute or hour, the first whose count is at least 1. */
function formatRate(intervalMs: number): string {
  for (const [unit, period] of [['s', 1000], ['m', 60_000], ['h', 3_600_000]] as const) {
    const count = period / intervalMs;
    if (count >= 1 || unit === 'h') return `${Number(count.toFixed(3))}/${unit}`;
  }
  return '';
}
