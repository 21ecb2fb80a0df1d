import type { StatsCollector } from '../contracts/crawler.js';
import { IgnoreRequest } from '../contracts/control-flow.js';
import { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { defaultLogBus, type Logger } from '../log/index.js';
import { NULL_STATS, type ComponentOptions } from '../middlewares/spider/component-options.js';
import { RobotsRules } from './robots-rules.js';

/** Downloads one request the way the engine downloads any other (middlewares, stats, logs). */
export type DownloadFn = (request: Request) => Promise<Response>;

export interface RobotsCacheOptions extends ComponentOptions {
  /** How robots.txt files are fetched: the engine passes its normal download path. */
  download: DownloadFn;
  /** Priority of robots.txt requests, so that they go before the pages waiting on them. Default 1000, as Scrapy. */
  priority?: number;
}

/**
 * Every origin's robots.txt for one crawl, fetched once per origin: the
 * first request for an origin starts the download and every caller for that
 * origin, concurrent or later, shares the same pending promise. A robots.txt
 * that cannot be had (4xx, 5xx, network error, timeout) allows everything,
 * as in Scrapy; a failed download is logged once, at ERROR:
 * `Error downloading <GET http://host/robots.txt>: <message>`.
 *
 * Stats, Scrapy's keys: `robotstxt/request_count`, `robotstxt/response_count`,
 * `robotstxt/response_status_count/<status>`, `robotstxt/exception_count/<error name>`.
 */
export class RobotsCache {
  static readonly DOWNLOAD_PRIORITY = 1000;

  readonly #download: DownloadFn;
  readonly #priority: number;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;
  readonly #parseLogger: Logger;
  /** Origins whose robots.txt is on its way: every caller shares the one promise. */
  readonly #pending = new Map<string, Promise<RobotsRules>>();
  /** Settled origins, so that the hot path can answer without awaiting. */
  readonly #settled = new Map<string, RobotsRules>();

  constructor(options: RobotsCacheOptions) {
    this.#download = options.download;
    this.#priority = options.priority ?? RobotsCache.DOWNLOAD_PRIORITY;
    this.#stats = options.stats ?? NULL_STATS;
    const bus = options.logBus ?? defaultLogBus;
    this.#logger = bus.getLogger('seine.downloadermiddlewares.robotstxt');
    this.#parseLogger = bus.getLogger('seine.robotstxt');
  }

  /** True when robots.txt lets `userAgent` fetch `request` (URLs that are not http(s) always are). */
  async allowed(request: Request, userAgent: string): Promise<boolean> {
    const origin = originOf(request.url);
    if (origin === null) return true;
    const rules = this.#settled.get(origin) ?? (await this.rulesFor(origin));
    return rules.allowed(request.url, userAgent);
  }

  /** `allowed()` without waiting: the answer when the origin's robots.txt is already in, else undefined. */
  allowedNow(request: Request, userAgent: string): boolean | undefined {
    const origin = originOf(request.url);
    if (origin === null) return true;
    return this.#settled.get(origin)?.allowed(request.url, userAgent);
  }

  /** The rules of `origin` (`http://host:port`), fetching its robots.txt on first use. */
  rulesFor(origin: string): Promise<RobotsRules> {
    const settled = this.#settled.get(origin);
    if (settled !== undefined) return Promise.resolve(settled);
    let pending = this.#pending.get(origin);
    if (pending === undefined) {
      // #fetch never rejects (every failure means allow-all), so the entry always settles.
      pending = this.#fetch(origin).then((rules) => {
        this.#settled.set(origin, rules);
        this.#pending.delete(origin);
        return rules;
      });
      this.#pending.set(origin, pending);
    }
    return pending;
  }

  /** The robots.txt Request made for `origin`. */
  robotsRequest(origin: string): Request {
    return new Request(`${origin}/robots.txt`, {
      priority: this.#priority,
      meta: { dont_obey_robotstxt: true },
      // Not deduplicated against the spider's own requests for /robots.txt.
      dontFilter: true,
    });
  }

  async #fetch(origin: string): Promise<RobotsRules> {
    const request = this.robotsRequest(origin);
    this.#stats.inc('robotstxt/request_count');
    let response: Response;
    try {
      response = await this.#download(request);
    } catch (error) {
      this.#downloadFailed(request, error);
      return RobotsRules.allowAll(request.url);
    }
    this.#stats.inc('robotstxt/response_count');
    this.#stats.inc(`robotstxt/response_status_count/${response.status}`);
    if (response.status >= 400) return RobotsRules.allowAll(request.url);
    return new RobotsRules(request.url, this.#decode(response.body));
  }

  #downloadFailed(request: Request, error: unknown): void {
    // A robots.txt request dropped on purpose (by a middleware, a closing crawl) is not an error.
    if (error instanceof IgnoreRequest) return;
    // Duck-typed: errors from another realm (Node's fetch under a VM context) fail `instanceof Error`.
    const err = isErrorLike(error) ? error : new Error(String(error));
    this.#logger.error(`Error downloading ${request.toString()}: ${err.message}`, { error: err });
    this.#stats.inc(`robotstxt/exception_count/${err.name}`);
  }

  #decode(body: Buffer): string {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch (error) {
      this.#parseLogger.warning(
        'Failure while parsing robots.txt. File either contains garbage or is in an encoding other than UTF-8, treating it as an empty file.',
        { error },
      );
      return '';
    }
  }
}

function isErrorLike(value: unknown): value is Error {
  return typeof value === 'object' && value !== null
    && typeof (value as Error).message === 'string' && typeof (value as Error).name === 'string';
}

/** `scheme://host[:port]` of an http(s) URL; null for other schemes (data:, file:, …), which have no robots.txt. */
export function originOf(url: string): string | null {
  if (!/^https?:/i.test(url)) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
