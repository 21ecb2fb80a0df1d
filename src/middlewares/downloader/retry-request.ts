import type { StatsCollector } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import type { Spider } from '../../contracts/spider.js';
import { NULL_STATS } from '../spider/component-options.js';
import { metaNumber } from './meta-values.js';
import { retryDelayMs } from './retry-delay.js';

export const RETRY_LOGGER = 'seine.downloadermiddlewares.retry';

export interface GetRetryRequestOptions {
  /** The spider asking; its crawler gives the settings, stats and log bus that options below leave out. */
  spider?: Spider;
  /** Why: a short text (`'503 Service Unavailable'`, `'empty page'`) or the error. Default 'unspecified'. */
  reason?: string | Error;
  /** Retries allowed. Default: `meta.max_retry_times`, else RETRY_TIMES. */
  maxRetryTimes?: number;
  /** Added to the priority of the retry. Default: RETRY_PRIORITY_ADJUST. */
  priorityAdjust?: number;
  /** RETRY_BACKOFF_BASE / RETRY_BACKOFF_MAX in seconds. Default: the settings'. */
  backoffBase?: number;
  backoffMax?: number;
  /** The response's `Retry-After` header, when there was one. */
  retryAfter?: string | null;
  stats?: StatsCollector;
  logger?: Logger;
  /** Prefix of the stats keys: `<base>/count`, `<base>/reason_count/<reason>`, `<base>/max_reached`. Default 'retry'. */
  statsBaseKey?: string;
  /** For tests: the jitter source and the clock. */
  random?: () => number;
  now?: () => number;
}

/** The numbers a retry needs from RETRY_* settings; DEFAULT_SETTINGS' values for a spider without a crawler. */
function fromSettings(spider: Spider | undefined): { times: number; adjust: number; base: number; max: number } {
  const settings = spider?.crawler?.settings;
  return {
    times: settings?.getInt('RETRY_TIMES') ?? DEFAULT_SETTINGS.RETRY_TIMES,
    adjust: settings?.getInt('RETRY_PRIORITY_ADJUST') ?? DEFAULT_SETTINGS.RETRY_PRIORITY_ADJUST,
    base: settings?.getFloat('RETRY_BACKOFF_BASE', DEFAULT_SETTINGS.RETRY_BACKOFF_BASE) ?? DEFAULT_SETTINGS.RETRY_BACKOFF_BASE,
    max: settings?.getFloat('RETRY_BACKOFF_MAX', DEFAULT_SETTINGS.RETRY_BACKOFF_MAX) ?? DEFAULT_SETTINGS.RETRY_BACKOFF_MAX,
  };
}

/**
 * A copy of `request` to try again, or null when it has been retried
 * `maxRetryTimes` times already (Scrapy's get_retry_request). The copy has
 * `meta.retry_times` one more, `dontFilter` set, its priority adjusted, and
 * `meta.retry_delay_ms`: how long the scheduler should hold it back.
 *
 * Logs `Retrying <GET url> (failed 1 times): <reason>` at DEBUG, or
 * `Gave up retrying <GET url> (failed 3 times): <reason>` at ERROR, and
 * counts `retry/count`, `retry/reason_count/<reason>` (an error counts under
 * its name) or `retry/max_reached`. Usable from a callback:
 * `return getRetryRequest(response.request!, { spider: this, reason: 'empty page' })`.
 */
export function getRetryRequest(request: Request, options: GetRetryRequestOptions = {}): Request | null {
  const { spider } = options;
  const defaults = fromSettings(spider);
  const stats = options.stats ?? spider?.crawler?.stats ?? NULL_STATS;
  const logger = options.logger ?? (spider?.crawler?.logBus ?? defaultLogBus).getLogger(RETRY_LOGGER);
  const baseKey = options.statsBaseKey ?? 'retry';
  const reason = options.reason ?? 'unspecified';
  const reasonText = typeof reason === 'string' ? reason : reason.message || reason.name;
  const retryTimes = (metaNumber(request.meta, 'retry_times') ?? 0) + 1;
  const maxRetryTimes = options.maxRetryTimes ?? metaNumber(request.meta, 'max_retry_times') ?? defaults.times;
  const extra = spider === undefined ? undefined : { spider };

  if (retryTimes > maxRetryTimes) {
    stats.inc(`${baseKey}/max_reached`);
    logger.error(`Gave up retrying ${request.toString()} (failed ${retryTimes} times): ${reasonText}`, extra);
    return null;
  }
  logger.debug(`Retrying ${request.toString()} (failed ${retryTimes} times): ${reasonText}`, extra);
  const delayMs = retryDelayMs(
    retryTimes,
    options.retryAfter,
    { baseSeconds: options.backoffBase ?? defaults.base, maxSeconds: options.backoffMax ?? defaults.max, now: (options.now ?? Date.now)() },
    options.random,
  );
  const retry = request.replace({
    dontFilter: true,
    priority: request.priority + (options.priorityAdjust ?? defaults.adjust),
    meta: { ...request.meta, retry_times: retryTimes, retry_delay_ms: delayMs },
  });
  stats.inc(`${baseKey}/count`);
  stats.inc(`${baseKey}/reason_count/${typeof reason === 'string' ? reason : reason.name}`);
  return retry;
}
