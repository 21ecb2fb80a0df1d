/**
 * The coordinator's view of one download slot over every worker: how many
 * of its requests are leased, and when its next start may be. It mirrors
 * what one process's DownloadSlots enforces, so that N workers together
 * are no less polite than one process: at most the slot's concurrency
 * leased at once, starts spaced by its delay (each lease carries the time
 * its request may start), a Retry-After pause, a DOWNLOAD_SLOTS rate.
 */
export interface SlotLimits {
  readonly concurrency: number;
  readonly delayMs: number;
  readonly randomizeDelay: boolean;
}

export class SlotSchedule {
  leased = 0;
  /** The earliest start of the slot's next request (ms since the epoch). */
  nextStart = Number.NEGATIVE_INFINITY;
  pausedUntil = Number.NEGATIVE_INFINITY;
  /** A delay a worker's AutoThrottle set: it replaces the slot's own. */
  delayOverrideMs: number | undefined = undefined;
  /** DOWNLOAD_SLOTS `rate`: the next start it allows (a bucket of one token). */
  rateNext = Number.NEGATIVE_INFINITY;

  constructor(readonly limits: SlotLimits) {}

  get delayMs(): number {
    return this.delayOverrideMs ?? this.limits.delayMs;
  }

  /**
   * When a request of this slot may be leased now: the time it may start
   * (≤ now: at once); null when the slot is full, paused, or its next start
   * is more than one delay away (no worker should hold a request that long).
   */
  startFor(now: number): number | null {
    if (this.leased >= this.limits.concurrency || this.pausedUntil > now) return null;
    const start = Math.max(now, this.nextStart);
    return start - now > this.delayMs ? null : start;
  }

  /** A request was leased to start at `start`: the next one starts a delay later. */
  take(start: number, random: () => number): void {
    this.leased++;
    const delay = this.delayMs;
    if (delay > 0) this.nextStart = start + delay * (this.limits.randomizeDelay ? 0.5 + random() : 1);
  }

  /** Milliseconds until a lease may be possible again; -1 while the slot is full (an acknowledgement frees it). */
  readyIn(now: number): number {
    if (this.leased >= this.limits.concurrency) return -1;
    if (this.pausedUntil > now) return this.pausedUntil - now;
    return Math.max(0, this.nextStart - this.delayMs - now);
  }

  /** DOWNLOAD_SLOTS `rate`: reserves the next start, `intervalMs` after the one before; the wait until it (RedisRateBuckets' RESERVE). */
  reserve(now: number, intervalMs: number): number {
    const start = Math.max(now, this.rateNext);
    this.rateNext = start + intervalMs;
    return start - now;
  }
}
