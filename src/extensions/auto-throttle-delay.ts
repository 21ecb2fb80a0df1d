/**
 * AutoThrottle's policy as pure functions (Scrapy's
 * `AutoThrottle._adjust_delay` and its debug line), in seconds as Scrapy
 * computes, so that seine's numbers are Scrapy's to the last bit.
 */

/** The bounds and aim of one crawl's AutoThrottle, in seconds. */
export interface AutoThrottleLimits {
  /** AUTOTHROTTLE_TARGET_CONCURRENCY: requests in flight per slot to aim for (> 0). */
  readonly targetConcurrency: number;
  /** DOWNLOAD_DELAY (or the spider's `downloadDelay`): the delay never goes below it. */
  readonly minDelay: number;
  /** AUTOTHROTTLE_MAX_DELAY: the delay never goes above it. */
  readonly maxDelay: number;
}

/**
 * A slot's next delay after a response that took `latency` seconds.
 *
 * A server that needs `latency` seconds per answer serves N requests at once
 * when they are sent `latency / N` seconds apart: that is the target. The
 * delay moves halfway from `delay` to the target when the target is lower,
 * and jumps to it when it is higher (an overloaded site is backed off at
 * once), then is clamped to [minDelay, maxDelay]. A non-200 response may
 * raise the delay but not lower it: error pages and redirects are small and
 * fast, and letting them shorten the delay would speed up a failing crawl.
 */
export function nextAutoThrottleDelay(delay: number, latency: number, status: number, limits: AutoThrottleLimits): number {
  const target = latency / limits.targetConcurrency;
  const toward = Math.max(target, (delay + target) / 2);
  const next = Math.min(Math.max(limits.minDelay, toward), limits.maxDelay);
  if (status !== 200 && next <= delay) return delay;
  return next;
}

/**
 * A slot's next delay after a 429 (Too Many Requests) or 503 (Service
 * Unavailable): the site said it is getting too much, so the delay doubles
 * — and is at least the start delay, so that a slot whose delay had fallen
 * to 0 backs off at all — clamped to [minDelay, maxDelay] as any delay.
 *
 * Scrapy (2.13 too) has no such rule: a 429 answers fast, its latency only
 * ever asks for a shorter delay, and the non-200 rule above keeps the delay
 * where it was, so a crawl that is being refused goes on at the same pace
 * (scrapy/scrapy#4424, #6458). Doubling backs off within a few answers; the
 * 200s that follow bring the delay down again by halves, as always.
 */
export function backedOffDelay(delay: number, startDelay: number, limits: AutoThrottleLimits): number {
  const wanted = Math.max(2 * delay, startDelay);
  return Math.min(Math.max(limits.minDelay, wanted), limits.maxDelay);
}

/** What one AUTOTHROTTLE_DEBUG line reports. */
export interface AutoThrottleDebugSample {
  readonly slot: string;
  /** Requests of the slot downloading now, this one included. */
  readonly concurrency: number;
  /** The slot's delay after the response, in seconds. */
  readonly delay: number;
  /** The delay before the response, in seconds. */
  readonly previousDelay: number;
  /** meta.download_latency, in seconds. */
  readonly latency: number;
  /** The response body's length in bytes. */
  readonly size: number;
}

/**
 * `slot: example.com | conc: 1 | delay:  325 ms (-175) | latency:  150 ms | size:   120 bytes`:
 * Scrapy's line, with Python's `%2d`, `%5d`, `%+d` and `%6d` (which truncate
 * a float towards zero and pad on the left).
 */
export function autoThrottleDebugLine(sample: AutoThrottleDebugSample): string {
  const conc = pyInt(sample.concurrency).padStart(2);
  const delay = pyInt(sample.delay * 1000).padStart(5);
  const diffMs = Math.trunc((sample.delay - sample.previousDelay) * 1000);
  const diff = diffMs >= 0 ? `+${pyInt(diffMs)}` : pyInt(diffMs);
  const latency = pyInt(sample.latency * 1000).padStart(5);
  const size = pyInt(sample.size).padStart(6);
  return `slot: ${sample.slot} | conc:${conc} | delay:${delay} ms (${diff}) | latency:${latency} ms | size:${size} bytes`;
}

// Python's `%d` of a float: int() truncates towards zero (and -0 prints as 0).
function pyInt(value: number): string {
  return String(Math.trunc(value) + 0);
}
