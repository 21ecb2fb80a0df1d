import { SeineError } from '../errors/seine-error.js';

/**
 * The crawl could not go on: a component's `openSpider` threw, or the
 * engine itself failed. It is raised after the crawl closed cleanly — what
 * had opened was closed, the feeds were finalised, the stats dumped — so
 * nothing scraped before is lost.
 */
export class CrawlFailedError extends SeineError {
  static readonly code = 'SEINE_CRAWL_FAILED';
  constructor(message: string, options?: { cause?: unknown }) {
    super(CrawlFailedError.code, message, options);
  }
}
