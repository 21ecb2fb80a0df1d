import type { DownloaderMiddleware } from '../../contracts/components.js';
import { NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import type { Spider } from '../../contracts/spider.js';
import { NULL_STATS, type ComponentOptions } from '../spider/component-options.js';
import { metaNumber } from './meta-values.js';
import { DOWNLOAD_SLOT } from '../../throttle/download-slots.js';
import type { PausableSlots } from './retry-after.js';
import { parseRetryAfter } from './retry-delay.js';
import { isRetryableError } from './retryable-errors.js';
import { RETRY_LOGGER, getRetryRequest } from './retry-request.js';
import { responseStatusMessage } from './status-message.js';

export interface RetryOptions extends ComponentOptions {
  /** RETRY_TIMES: retries per request (`meta.max_retry_times` overrides). Default 2. */
  retryTimes?: number;
  /** RETRY_HTTP_CODES: response statuses to retry. */
  retryHttpCodes?: Iterable<number>;
  /** RETRY_PRIORITY_ADJUST: added to a retry's priority (`meta.priority_adjust` overrides). Default -1. */
  priorityAdjust?: number;
  /** RETRY_BACKOFF_BASE (seconds, default 1) and RETRY_BACKOFF_MAX (seconds, default 60). */
  backoffBase?: number;
  backoffMax?: number;
  /** For tests: the jitter source and the clock. */
  random?: () => number;
  now?: () => number;
  /** The crawl's download slots: a retry whose Retry-After already paused its slot (RetryAfterMiddleware) adds no wait of its own. */
  slots?: () => PausableSlots | undefined;
}

/**
 * Retries requests that failed for reasons that may pass (Scrapy's
 * RetryMiddleware): responses whose status is in RETRY_HTTP_CODES, and the
 * download errors of retryable-errors.ts. A request is retried at most
 * RETRY_TIMES times (`meta.max_retry_times`), never when `meta.dont_retry`
 * is set. Unlike Scrapy, each retry carries `meta.retry_delay_ms`, an
 * exponential backoff with jitter or the server's `Retry-After`, which the
 * scheduler honours. After the last retry a response is passed on as it is
 * and an error propagates.
 */
export class RetryMiddleware implements DownloaderMiddleware {
  readonly retryTimes: number;
  readonly retryHttpCodes: ReadonlySet<number>;
  readonly priorityAdjust: number;
  readonly backoffBase: number;
  readonly backoffMax: number;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;
  readonly #random: (() => number) | undefined;
  readonly #now: (() => number) | undefined;
  readonly #slots: () => PausableSlots | undefined;

  constructor(options: RetryOptions = {}) {
    this.retryTimes = options.retryTimes ?? DEFAULT_SETTINGS.RETRY_TIMES;
    this.retryHttpCodes = new Set(options.retryHttpCodes ?? DEFAULT_SETTINGS.RETRY_HTTP_CODES);
    this.priorityAdjust = options.priorityAdjust ?? DEFAULT_SETTINGS.RETRY_PRIORITY_ADJUST;
    this.backoffBase = options.backoffBase ?? DEFAULT_SETTINGS.RETRY_BACKOFF_BASE;
    this.backoffMax = options.backoffMax ?? DEFAULT_SETTINGS.RETRY_BACKOFF_MAX;
    this.#stats = options.stats ?? NULL_STATS;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger(RETRY_LOGGER);
    this.#random = options.random;
    this.#now = options.now;
    this.#slots = options.slots ?? (() => undefined);
  }

  static fromCrawler(crawler: Crawler): RetryMiddleware {
    const { settings } = crawler;
    if (!settings.getBool('RETRY_ENABLED')) throw new NotConfigured('RETRY_ENABLED is off');
    return new RetryMiddleware({
      retryTimes: settings.getInt('RETRY_TIMES'),
      retryHttpCodes: settings.getList('RETRY_HTTP_CODES').map((code) => Number(code)),
      priorityAdjust: settings.getInt('RETRY_PRIORITY_ADJUST'),
      backoffBase: settings.getFloat('RETRY_BACKOFF_BASE', DEFAULT_SETTINGS.RETRY_BACKOFF_BASE),
      backoffMax: settings.getFloat('RETRY_BACKOFF_MAX', DEFAULT_SETTINGS.RETRY_BACKOFF_MAX),
      stats: crawler.stats,
      logBus: crawler.logBus,
      slots: () => crawler.downloadSlots,
    });
  }

  processResponse(request: Request, response: Response, spider: Spider): Request | Response {
    if (request.meta.dont_retry || !this.retryHttpCodes.has(response.status)) return response;
    const retryAfter = response.headers.get('Retry-After') ?? null;
    // The slot's pause holds the retry back already; a wait of its own on top would count again from when it is
    // scheduled, which under SCHEDULER=redis is after the pause (the frontier holds the slot for every worker).
    const waited = retryAfter !== null && this.#slotPausedFor(request, retryAfter);
    return this.#retry(request, responseStatusMessage(response.status), spider, waited ? null : retryAfter) ?? response;
  }

  /** True when the request's slot is paused at least as long as `retryAfter` asks (give or take the second it is written in). */
  #slotPausedFor(request: Request, retryAfter: string): boolean {
    const slots = this.#slots();
    if (slots === undefined) return false;
    const now = (this.#now ?? Date.now)();
    const seconds = parseRetryAfter(retryAfter, now);
    if (seconds === null || seconds <= 0) return false;
    const fixed = request.meta[DOWNLOAD_SLOT];
    const key = fixed === undefined || fixed === null ? slots.slotKey(request) : String(fixed);
    const pausedUntil = slots.slot(key)?.pausedUntil ?? Number.NEGATIVE_INFINITY;
    return pausedUntil >= now + Math.min(seconds, this.backoffMax) * 1000 - 1000;
  }

  processException(request: Request, error: Error, spider: Spider): Request | null {
    if (request.meta.dont_retry || !isRetryableError(error)) return null;
    return this.#retry(request, error, spider, null);
  }

  #retry(request: Request, reason: string | Error, spider: Spider, retryAfter: string | null): Request | null {
    return getRetryRequest(request, {
      spider,
      reason,
      maxRetryTimes: metaNumber(request.meta, 'max_retry_times') ?? this.retryTimes,
      priorityAdjust: metaNumber(request.meta, 'priority_adjust') ?? this.priorityAdjust,
      backoffBase: this.backoffBase,
      backoffMax: this.backoffMax,
      retryAfter,
      stats: this.#stats,
      logger: this.#logger,
      random: this.#random,
      now: this.#now,
    });
  }
}
