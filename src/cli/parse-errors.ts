import { SeineError } from '../errors/seine-error.js';

/** `seine parse` without --spider, and no spider of the project (or several) covers the URL's domain. */
export class NoSpiderForUrlError extends SeineError {
  static readonly code = 'SEINE_NO_SPIDER_FOR_URL';
  constructor(readonly url: string) {
    super(NoSpiderForUrlError.code, `Unable to find spider for: ${url} (name one with --spider NAME; seine list shows them)`);
  }
}

/** `seine parse -c NAME` (or a rule's callback name) names no method of the spider. */
export class CallbackNotFoundError extends SeineError {
  static readonly code = 'SEINE_CALLBACK_NOT_FOUND';
  constructor(readonly callback: string, readonly spiderName: string) {
    super(CallbackNotFoundError.code, `Cannot find callback '${callback}' in spider: ${spiderName}`);
  }
}

/** `seine parse --rules` on a spider without rules, or none of its rules' link extractors matches the URL. */
export class NoMatchingRuleError extends SeineError {
  static readonly code = 'SEINE_NO_MATCHING_RULE';
  constructor(readonly url: string, readonly spiderName: string, hasRules: boolean) {
    super(
      NoMatchingRuleError.code,
      hasRules
        ? `Cannot find a rule that matches '${url}' in spider: ${spiderName} (give the callback with -c NAME)`
        : `No CrawlSpider rules found in spider '${spiderName}': give the callback to use with -c NAME`,
    );
  }
}
