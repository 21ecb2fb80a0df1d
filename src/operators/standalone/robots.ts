import { defer, filter, finalize, from, map, mergeMap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Request } from '../../http/request.js';
import type { ComponentOptions } from '../../middlewares/spider/component-options.js';
import { RobotsCache } from '../../robots/robots-cache.js';
import { RobotsTxtMiddleware } from '../../robots/robots-txt-middleware.js';
import { fetchWith, type FetchSettings } from './fetch-defaults.js';

export interface RobotsOptions extends FetchSettings, ComponentOptions {}

/**
 * Obeys robots.txt: fetches each origin's robots.txt once (the first request
 * for an origin waits for it, later ones are answered at once) and lets
 * through the requests it allows for `userAgent` (default `seine`; a
 * request's own `User-Agent` header wins, as in the engine).
 *
 * Drops: forbidden requests, logged `Forbidden by robots.txt: <GET url>` at
 * DEBUG and counted as `robotstxt/forbidden`. A robots.txt that answers 4xx
 * or 5xx, or cannot be downloaded, allows everything (Scrapy's rule); a
 * failed download is logged at ERROR and counted as
 * `robotstxt/exception_count/<error name>`.
 *
 * Requests of one origin keep their order; requests of different origins may
 * pass each other while a robots.txt is on its way. Completes when the
 * source has completed and every pending check has answered.
 * Unsubscribing aborts robots.txt transfers in flight. The cache belongs to
 * one subscription.
 */
export function robots(options: RobotsOptions): MonoTypeOperatorFunction<Request> {
  return (source) =>
    defer(() => {
      const abort = new AbortController();
      const cache = new RobotsCache({ download: (request) => fetchWith(options, request, abort.signal), stats: options.stats, logBus: options.logBus });
      const check = new RobotsTxtMiddleware({ cache, userAgent: options.userAgent, stats: options.stats, logBus: options.logBus });
      return source.pipe(
        mergeMap((request) =>
          from(check.allowed(request)).pipe(
            filter((allowed) => allowed),
            map(() => request),
          ),
        ),
        finalize(() => abort.abort()),
      );
    });
}
