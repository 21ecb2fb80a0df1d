import { defer, filter, type MonoTypeOperatorFunction } from 'rxjs';
import type { Request } from '../../http/request.js';
import { fingerprint as requestFingerprint } from '../../http/fingerprint.js';
import { defaultLogBus } from '../../log/index.js';
import { NULL_STATS, type ComponentOptions } from '../../middlewares/spider/component-options.js';
import { DUPEFILTER_LOGGER } from '../../scheduler/scheduler.js';
import { FingerprintDupeFilter, type Fingerprint } from '../../scheduler/dupe-filter.js';

export interface DedupeOptions extends ComponentOptions {
  /** What makes two requests "the same"; default Scrapy's request fingerprint (src/http/fingerprint.ts). */
  fingerprint?: Fingerprint;
}

/**
 * Lets each request through once: a request whose fingerprint was seen
 * before on this subscription is dropped, unless it has `dontFilter`.
 *
 * Drops: duplicates, counted as `dupefilter/filtered`; the first one is
 * logged at DEBUG on `seine.dupefilters`, as the engine's scheduler does.
 * Completes when its source completes. The seen set belongs to one
 * subscription, so two subscriptions deduplicate independently.
 */
export function dedupe(options: DedupeOptions = {}): MonoTypeOperatorFunction<Request> {
  const stats = options.stats ?? NULL_STATS;
  const logger = (options.logBus ?? defaultLogBus).getLogger(DUPEFILTER_LOGGER);
  return (source) =>
    defer(() => {
      const seen = new FingerprintDupeFilter(options.fingerprint ?? ((request) => requestFingerprint(request)));
      let logged = false;
      return source.pipe(
        filter((request) => {
          if (request.dontFilter || !seen.seen(request)) return true;
          if (!logged) {
            logger.debug(`Filtered duplicate request: ${request.toString()} - no more duplicates will be shown (see DUPEFILTER_DEBUG to show all duplicates)`);
            logged = true;
          }
          stats.inc('dupefilter/filtered');
          return false;
        }),
      );
    });
}
