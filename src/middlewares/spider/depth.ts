import type { SpiderMiddleware, SpiderOutput } from '../../contracts/components.js';
import { filterOutputs, markFilterOnly, type OutputFilterFn } from '../../contracts/output-filter.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import { isRequest } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import type { Spider } from '../../contracts/spider.js';
import { NULL_STATS, type ComponentOptions } from './component-options.js';

export interface DepthOptions extends ComponentOptions {
  /** DEPTH_LIMIT: requests deeper than this are dropped; 0 = no limit. */
  maxDepth?: number;
  /** DEPTH_STATS_VERBOSE: count requests per depth in `request_depth_count/<n>`. */
  verboseStats?: boolean;
  /** DEPTH_PRIORITY: each request's priority is lowered by depth × this (negative: deeper first). */
  priority?: number;
}

/**
 * Tracks how many links deep each request is, as Scrapy's DepthMiddleware:
 * a response without `meta.depth` is depth 0, and each request its callback
 * yields gets `meta.depth` one more. Requests past DEPTH_LIMIT are dropped
 * with `Ignoring link (depth > N): url` at DEBUG; `request_depth_max` keeps
 * the deepest request let through.
 */
export class DepthMiddleware implements SpiderMiddleware {
  readonly maxDepth: number;
  readonly verboseStats: boolean;
  readonly priority: number;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;

  constructor(options: DepthOptions = {}) {
    this.maxDepth = options.maxDepth ?? 0;
    this.verboseStats = options.verboseStats ?? false;
    this.priority = options.priority ?? 0;
    this.#stats = options.stats ?? NULL_STATS;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.spidermiddlewares.depth');
  }

  static fromCrawler(crawler: Crawler): DepthMiddleware {
    const { settings } = crawler;
    return new DepthMiddleware({
      maxDepth: settings.getInt('DEPTH_LIMIT'),
      verboseStats: settings.getBool('DEPTH_STATS_VERBOSE'),
      priority: settings.getInt('DEPTH_PRIORITY'),
      stats: crawler.stats,
      logBus: crawler.logBus,
    });
  }

  processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider): AsyncIterable<SpiderOutput> {
    return filterOutputs(this, response, result, spider);
  }

  outputFilter(response: Response, spider: Spider): OutputFilterFn {
    const parentDepth = this.#initDepth(response);
    return (output) => this.#filter(output, parentDepth, spider);
  }

  /** The response's depth, recorded as 0 in its meta when absent (a start request's response). */
  #initDepth(response: Response): number {
    const meta = response.request?.meta;
    if (meta === undefined) return 0;
    if (!('depth' in meta)) {
      meta.depth = 0;
      if (this.verboseStats) this.#stats.inc('request_depth_count/0');
    }
    return Number(meta.depth) || 0;
  }

  #filter(output: SpiderOutput, parentDepth: number, spider: Spider): SpiderOutput | null {
    if (!isRequest(output)) return output;
    const depth = parentDepth + 1;
    // Request.priority is read-only, so a priority change needs a copy; depth is set first so the copy carries it.
    output.meta.depth = depth;
    const request = this.priority ? output.replace({ priority: output.priority - depth * this.priority }) : output;
    if (this.maxDepth && depth > this.maxDepth) {
      this.#logger.debug(`Ignoring link (depth > ${this.maxDepth}): ${request.url}`, { spider });
      return null;
    }
    if (this.verboseStats) this.#stats.inc(`request_depth_count/${depth}`);
    this.#stats.max('request_depth_max', depth);
    return request;
  }
}

// The engine runs it as a filter (src/contracts/output-filter.ts) unless a subclass replaces processSpiderOutput.
markFilterOnly(DepthMiddleware.prototype.processSpiderOutput);
