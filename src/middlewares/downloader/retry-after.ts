import type { DownloaderMiddleware } from '../../contracts/components.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import { DOWNLOAD_SLOT } from '../../throttle/download-slots.js';
import { NULL_STATS, type ComponentOptions } from '../spider/component-options.js';
import { parseRetryAfter } from './retry-delay.js';

export const RETRY_AFTER_LOGGER = 'seine.downloadermiddlewares.retryafter';

/**
 * The longest pause a `Retry-After` gets, in seconds. A server that asks for
 * a day (or sends a date years ahead by mistake) would otherwise hold the
 * slot, and often the crawl, for that long; ten minutes is long enough for
 * any rate limit's window we have seen, and the line logged says the value
 * was cut.
 */
export const RETRY_AFTER_MAX_SECONDS = 600;

/** The statuses whose `Retry-After` speaks for the whole site (RFC 9110 §10.2.3, RFC 6585 §4). */
const PAUSING_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** What the middleware needs of the crawl's download slots (src/throttle's DownloadSlots has it). */
export interface PausableSlots {
  slotKey(request: Request): string;
  pauseSlot(key: string, untilMs: number): boolean;
  slot(key: string): { readonly pausedUntil: number } | undefined;
}

export interface RetryAfterOptions extends ComponentOptions {
  /** The crawl's slots, asked when a response comes: they are created after the middlewares. Without them nothing is paused. */
  slots?: () => PausableSlots | undefined;
  /** The engine's clock (ms since the epoch); default Date.now. */
  now?: () => number;
}

/**
 * A 429 or 503 with a `Retry-After` pauses the response's whole download
 * slot: no request of that site starts until then, not only the retried one
 * (RetryMiddleware delays the retry itself). Values over
 * RETRY_AFTER_MAX_SECONDS are cut to it. One WARNING line per pause (not per
 * response of a burst that hits the same pause) and a `throttle/slot_paused`
 * count. The response goes on unchanged: retrying it is the business of
 * RetryMiddleware (550), SessionsMiddleware (640) or ProxyPoolMiddleware
 * (740), which all see it after this one on the way back (order 830): a
 * request they send again, through another session or proxy, still waits
 * for the pause.
 */
export class RetryAfterMiddleware implements DownloaderMiddleware {
  readonly #slots: () => PausableSlots | undefined;
  readonly #now: () => number;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;

  constructor(options: RetryAfterOptions = {}) {
    this.#slots = options.slots ?? (() => undefined);
    this.#now = options.now ?? Date.now;
    this.#stats = options.stats ?? NULL_STATS;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger(RETRY_AFTER_LOGGER);
  }

  static fromCrawler(crawler: Crawler): RetryAfterMiddleware {
    return new RetryAfterMiddleware({ slots: () => crawler.downloadSlots, stats: crawler.stats, logBus: crawler.logBus });
  }

  processResponse(request: Request, response: Response): Response {
    if (!PAUSING_STATUSES.has(response.status)) return response;
    const header = response.headers.get('Retry-After');
    const slots = this.#slots();
    if (header === null || header === undefined || slots === undefined) return response;
    const now = this.#now();
    const asked = parseRetryAfter(header, now);
    if (asked === null || asked <= 0) return response;
    const seconds = Math.min(asked, RETRY_AFTER_MAX_SECONDS);
    const fixed = request.meta[DOWNLOAD_SLOT];
    const key = fixed === undefined || fixed === null ? slots.slotKey(request) : String(fixed);
    const wasPaused = (slots.slot(key)?.pausedUntil ?? Number.NEGATIVE_INFINITY) > now;
    slots.pauseSlot(key, now + seconds * 1000);
    if (wasPaused) return response;
    this.#stats.inc('throttle/slot_paused');
    const cut = asked > seconds ? ` (it asked for ${formatSeconds(asked)} s, more than the ${RETRY_AFTER_MAX_SECONDS} s seine waits at most)` : '';
    this.#logger.warning(
      `Pausing download slot ${key} for ${formatSeconds(seconds)} s: ${request.toString()} got ${response.status} with Retry-After: ${header.trim()}${cut}`,
    );
    return response;
  }
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}
