import type { SpiderMiddleware, SpiderOutput } from '../../contracts/components.js';
import { filterOutputs, markFilterOnly, type OutputFilterFn } from '../../contracts/output-filter.js';
import { NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import { isRequest } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import type { Spider } from '../../contracts/spider.js';
import { NULL_STATS, type ComponentOptions } from './component-options.js';

export interface UrlLengthOptions extends ComponentOptions {
  /** URLLENGTH_LIMIT: longest URL (in characters) a yielded request may have. Default 2083. */
  maxLength?: number;
}

/**
 * Drops requests whose URL is longer than URLLENGTH_LIMIT, as Scrapy's
 * UrlLengthMiddleware: `Ignoring link (url length > N): url` at INFO and
 * `urllength/request_ignored_count`. URLLENGTH_LIMIT = 0 switches it off.
 */
export class UrlLengthMiddleware implements SpiderMiddleware {
  readonly maxLength: number;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;

  constructor(options: UrlLengthOptions = {}) {
    this.maxLength = options.maxLength ?? 2083;
    this.#stats = options.stats ?? NULL_STATS;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.spidermiddlewares.urllength');
  }

  static fromCrawler(crawler: Crawler): UrlLengthMiddleware {
    const maxLength = crawler.settings.getInt('URLLENGTH_LIMIT');
    if (!maxLength) throw new NotConfigured('URLLENGTH_LIMIT is 0');
    return new UrlLengthMiddleware({ maxLength, stats: crawler.stats, logBus: crawler.logBus });
  }

  processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider): AsyncIterable<SpiderOutput> {
    return filterOutputs(this, response, result, spider);
  }

  outputFilter(_response: Response, spider: Spider): OutputFilterFn {
    return (output) => {
      if (isRequest(output) && output.url.length > this.maxLength) {
        this.#logger.info(`Ignoring link (url length > ${this.maxLength}): ${output.url}`, { spider });
        this.#stats.inc('urllength/request_ignored_count');
        return null;
      }
      return output;
    };
  }
}

// The engine runs it as a filter (src/contracts/output-filter.ts) unless a subclass replaces processSpiderOutput.
markFilterOnly(UrlLengthMiddleware.prototype.processSpiderOutput);
