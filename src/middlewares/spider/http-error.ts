import type { SpiderMiddleware, SpiderOutput } from '../../contracts/components.js';
import { IgnoreRequest } from '../../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import type { Response } from '../../http/response.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import type { Spider } from '../../contracts/spider.js';
import { NULL_STATS, type ComponentOptions } from './component-options.js';

/**
 * A response with a status nobody asked for (not 2xx, not allowed). It is an
 * IgnoreRequest, as in Scrapy: control flow, not a failure. The request's
 * errback receives it, with the response in `error.response`.
 */
export class HttpError extends IgnoreRequest {
  readonly response: Response;

  constructor(response: Response, message = 'Ignoring non-200 response') {
    super(message);
    this.name = 'HttpError';
    this.response = response;
  }
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof HttpError;
}

export interface HttpErrorOptions extends ComponentOptions {
  /** HTTPERROR_ALLOWED_CODES: non-2xx statuses that still reach the callback. */
  allowedCodes?: readonly number[];
  /** HTTPERROR_ALLOW_ALL: every status reaches the callback. */
  allowAll?: boolean;
}

/** A spider may list the statuses its callbacks handle (Scrapy's `handle_httpstatus_list`). */
type SpiderWithStatuses = Spider & { handleHttpstatusList?: readonly number[] };

/**
 * Keeps non-2xx responses from callbacks, as Scrapy's HttpErrorMiddleware.
 * Allowed, in this order: `meta.handle_httpstatus_all`; else
 * `meta.handle_httpstatus_list` alone when present; else HTTPERROR_ALLOW_ALL;
 * else the spider's `handleHttpstatusList`, or HTTPERROR_ALLOWED_CODES when
 * the spider has none. Any other response is thrown as an HttpError from
 * `processSpiderInput`, so it goes to the request's errback; if nothing
 * handles it, `processSpiderException` logs
 * `Ignoring response <404 url>: HTTP status code is not handled or not allowed`
 * at INFO, counts `httperror/response_ignored_count` and
 * `httperror/response_ignored_status_count/<status>`, and ends it.
 */
export class HttpErrorMiddleware implements SpiderMiddleware {
  readonly allowedCodes: readonly number[];
  readonly allowAll: boolean;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;

  constructor(options: HttpErrorOptions = {}) {
    this.allowedCodes = [...(options.allowedCodes ?? [])];
    this.allowAll = options.allowAll ?? false;
    this.#stats = options.stats ?? NULL_STATS;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.spidermiddlewares.httperror');
  }

  static fromCrawler(crawler: Crawler): HttpErrorMiddleware {
    return new HttpErrorMiddleware({
      allowedCodes: crawler.settings.get('HTTPERROR_ALLOWED_CODES'),
      allowAll: crawler.settings.getBool('HTTPERROR_ALLOW_ALL'),
      stats: crawler.stats,
      logBus: crawler.logBus,
    });
  }

  processSpiderInput(response: Response, spider: Spider): void {
    if (!this.isAllowed(response, spider)) throw new HttpError(response);
  }

  processSpiderException(response: Response, error: Error, spider: Spider): SpiderOutput[] | null {
    if (!isHttpError(error)) return null;
    this.#stats.inc('httperror/response_ignored_count');
    this.#stats.inc(`httperror/response_ignored_status_count/${response.status}`);
    this.#logger.info(`Ignoring response ${response.toString()}: HTTP status code is not handled or not allowed`, { spider });
    return [];
  }

  /** True when `response` may reach its callback. */
  isAllowed(response: Response, spider: Spider): boolean {
    const status = response.status;
    if (status >= 200 && status < 300) return true;
    const meta = response.request?.meta ?? {};
    if (meta.handle_httpstatus_all) return true;
    let allowed: unknown;
    if ('handle_httpstatus_list' in meta) allowed = meta.handle_httpstatus_list;
    else if (this.allowAll) return true;
    else allowed = (spider as SpiderWithStatuses).handleHttpstatusList ?? this.allowedCodes;
    return Array.isArray(allowed) && allowed.some((code) => Number(code) === status);
  }
}
