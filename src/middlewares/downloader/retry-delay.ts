/**
 * How long to wait before a retry: exponential backoff with jitter, or what
 * the server asked for in `Retry-After`. Scrapy retries at once (a retried
 * request only goes to the back of the queue); hammering a server that
 * answered 503 or 429 makes it worse, so seine waits.
 */
import { parseHttpDate } from '../../http/http-date.js';

export interface RetryDelayOptions {
  /** RETRY_BACKOFF_BASE: seconds before the first retry (before jitter); 0 = retry at once. */
  baseSeconds: number;
  /** RETRY_BACKOFF_MAX: seconds the backoff grows to at most; also caps `Retry-After`. */
  maxSeconds: number;
  /** The current time in ms since the epoch, for a `Retry-After` date. Default: Date.now(). */
  now?: number;
}

const DELAY_SECONDS = /^\d+$/;

/**
 * The seconds a `Retry-After` value asks for (RFC 9110 §10.2.3): a
 * non-negative integer, or an HTTP date (0 when it has passed). Null for a
 * missing or unreadable value; decimals and negative numbers are not valid.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (DELAY_SECONDS.test(value)) return Number(value);
  const date = parseHttpDate(value);
  return date === null ? null : Math.max(0, date - nowMs / 1000);
}

/**
 * Milliseconds to wait before retry number `attempt` (1 for the first retry).
 * A readable `Retry-After` wins, capped by `maxSeconds`, without jitter (the
 * server named the time). Otherwise `min(max, base·2^(attempt−1))` times a
 * jitter factor in [0.5, 1.5) drawn from `random()`, so that requests that
 * failed together do not all come back together. The jitter applies after
 * the cap, so a wait can reach 1.5 × max.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterHeader: string | null | undefined,
  options: RetryDelayOptions,
  random: () => number = Math.random,
): number {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`retryDelayMs: attempt must be an integer of 1 or more (the retry's number), got ${String(attempt)}`);
  }
  const max = Math.max(0, options.maxSeconds || 0);
  const retryAfter = parseRetryAfter(retryAfterHeader, options.now ?? Date.now());
  if (retryAfter !== null) return Math.round(Math.min(retryAfter, max) * 1000);
  const base = options.baseSeconds || 0;
  if (base <= 0) return 0;
  const backoff = Math.min(max, base * 2 ** (attempt - 1));
  return Math.round(backoff * (0.5 + random()) * 1000);
}
