import { SeineError } from '../errors/seine-error.js';

/**
 * A request cannot be written to the JOBDIR's request queue: its callback is
 * not a method of the spider, or its meta / cbKwargs hold a value JSON cannot
 * carry. The scheduler keeps such a request in memory (it is lost if the
 * crawl is paused), as Scrapy does with an unpicklable request.
 */
export class RequestSerializationError extends SeineError {
  static readonly code = 'SEINE_REQUEST_NOT_SERIALIZABLE';

  constructor(message: string) {
    super(RequestSerializationError.code, message);
  }
}

/**
 * The JOBDIR cannot be used: its folder or files cannot be created or read,
 * or a request kept there cannot be rebuilt (its callback is no longer a
 * method of the spider).
 */
export class JobdirError extends SeineError {
  static readonly code = 'SEINE_JOBDIR';

  constructor(message: string, options?: { cause?: unknown }) {
    super(JobdirError.code, message, options);
  }
}
