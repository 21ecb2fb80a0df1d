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

  constructor(
    readonly key: string,
    public concurrency: number,
    public delayMs: number,
    public randomizeDelay: boolean,
  ) {}

  /** Milliseconds until the delay since the last start has passed (≤ 0: none left). */
  delayLeft(now: number): number {
    if (this.delayMs <= 0) return 0;
    return this.lastStart + this.delayMs * this.delayFactor - now;
  }

  /** `<DownloadSlot example.com concurrency=8 delay=0.00 active=2>` for engine status. */
  toString(): string {
    return `<DownloadSlot ${this.key} concurrency=${this.concurrency} delay=${(this.delayMs / 1000).toFixed(2)} active=${this.active.size}>`;
  }
}
