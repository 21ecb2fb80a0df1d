/**
 * A crawl of the given requests only, as Scrapy's fetch, view and parse
 * commands run one (they replace the spider's start_requests): the chosen
 * spider's settings, middlewares and pipelines apply, its start() does not
 * run, and the crawl's log goes to the bus it is given.
 */
import { CrawlerImpl } from '../crawler/crawler-impl.js';
import { startThrough } from '../crawler/crawl-defaults.js';
import { SeineError } from '../errors/seine-error.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { LogBus } from '../log/log-bus.js';
import type { FeedSpec } from '../feeds/index.js';
import type { Spider, SpiderClass } from '../contracts/spider.js';

/** The request was dropped before a response reached the command (robots.txt, a middleware, an error status). */
export class NoResponseError extends SeineError {
  static readonly code = 'SEINE_NO_RESPONSE';
  readonly url: string;

  constructor(url: string, reason: string | null) {
    const why = reason === null ? 'the request was dropped; the log above says why' : reason;
    super(NoResponseError.code, `No response downloaded for: ${url} (${why})`);
    this.url = url;
  }
}

export interface CrawlOnceOptions {
  readonly spiderClass: SpiderClass;
  /** Settings at the command line's priority (see cmdlineSettings in src/cli/run-crawl.ts). */
  readonly settings?: Record<string, unknown>;
  /** A project's settings.ts. */
  readonly projectSettings?: Record<string, unknown>;
  /** `-a NAME=VALUE` spider arguments. */
  readonly spiderArgs?: Record<string, string>;
  readonly feeds?: FeedSpec[];
  readonly logBus: LogBus;
}

/** A crawler whose start is `start(spider)` (called once the spider exists) instead of the spider's start(). */
export function crawlerStartingWith(start: (spider: Spider) => readonly Request[], options: CrawlOnceOptions): CrawlerImpl {
  return new CrawlerImpl(
    options.spiderClass,
    {
      args: options.spiderArgs ?? {},
      settings: options.settings ?? {},
      projectSettings: options.projectSettings ?? {},
      feeds: options.feeds ?? [],
      // The given requests pass the spider middlewares' processStart, as start requests do.
      parts: { startOf: (spider, middlewares) => startThrough(spider, middlewares, start(spider)) },
    },
    options.logBus,
  );
}

/** Why a request produced no response, as one line: seine's download errors say it themselves. */
export function noResponseError(url: string, error: Error | null): Error {
  // By code rather than instanceof: a project's middleware may throw another copy's SeineError.
  const code = (error as { code?: unknown } | null)?.code;
  if (error !== null && typeof code === 'string' && code.startsWith('SEINE_')) return error;
  // HttpErrorMiddleware's HttpError carries the response whose status the spider does not handle.
  const status = (error as { response?: { status?: unknown } } | null)?.response?.status;
  if (typeof status === 'number') return new NoResponseError(url, `the spider does not handle status ${status}: allow it with HTTPERROR_ALLOWED_CODES`);
  return new NoResponseError(url, error === null ? null : error.message);
}

export interface Fetched {
  /** The request that produced the response (after redirects, with the headers the middlewares added). */
  readonly request: Request;
  readonly response: Response;
}

/**
 * Crawls `request` alone and returns its response; make it with
 * shellRequest() so error statuses reach here. A failed download throws its
 * error (DnsLookupError, ConnectionRefusedError, …); a dropped request
 * throws NoResponseError.
 */
export async function fetchOnce(request: Request, options: CrawlOnceOptions): Promise<Fetched> {
  let fetched: Fetched | null = null;
  let failure: Error | null = null;
  const captured = request.replace({
    callback: (response: Response) => {
      fetched = { request: response.request ?? captured, response };
    },
    errback: (error: Error) => {
      failure = error;
    },
  });
  await crawlerStartingWith(() => [captured], options).run();
  if (fetched !== null) return fetched;
  throw noResponseError(captured.url, failure);
}
