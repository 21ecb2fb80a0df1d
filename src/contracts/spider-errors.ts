import { SeineError } from '../errors/seine-error.js';

/**
 * A spider class that cannot run as written: no `static name`, not a
 * subclass of Spider, no `parse` for responses that need it, or `startUrl`
 * where `startUrls` was meant. The message names the class and the fix.
 */
export class SpiderDefinitionError extends SeineError {
  static readonly code = 'SEINE_SPIDER_DEFINITION';

  constructor(message: string) {
    super(SpiderDefinitionError.code, message);
  }
}

/** A spider argument (`-a name=value`, `crawl(…, { args })`) that would replace a method, an accessor or `crawler`. */
export class SpiderArgumentError extends SeineError {
  static readonly code = 'SEINE_SPIDER_ARGUMENT';
  readonly argument: string;

  constructor(argument: string, message: string) {
    super(SpiderArgumentError.code, message);
    this.argument = argument;
  }
}
