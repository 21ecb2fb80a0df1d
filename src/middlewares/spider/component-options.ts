import type { StatsCollector } from '../../contracts/crawler.js';
import type { LogBus } from '../../log/index.js';

/**
 * What a built-in component needs from a crawl when it is built by hand
 * (`new OffsiteMiddleware({ stats, logBus })`) instead of by `fromCrawler`:
 * where to count and where to log. Both are optional so that a component can
 * be tried on its own; without them it counts nothing and logs to the
 * process-wide bus.
 */
export interface ComponentOptions {
  /** The crawl's stats; counts are dropped when absent. */
  stats?: StatsCollector;
  /** The crawl's log bus; `defaultLogBus` when absent. */
  logBus?: LogBus;
}

/** Stats that keep nothing, for components built without a crawl. */
export const NULL_STATS: StatsCollector = Object.freeze({
  get: () => undefined,
  set: () => undefined,
  inc: () => undefined,
  max: () => undefined,
  min: () => undefined,
  getAll: () => ({}),
});
