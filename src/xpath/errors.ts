import { SeineError } from '../errors/seine-error.js';

/**
 * Every problem with an XPath expression: syntax, unknown function, wrong
 * number or type of arguments, unknown variable or namespace prefix, a bad
 * regular expression given to `re:*`. The message always quotes the whole
 * expression and the 0-based offset where the problem was found, because a
 * user reading a crawl log has only that to go on:
 *
 *   Invalid XPath: '//p[' at position 4: expected an expression, found the end of the expression
 */
export class XPathError extends SeineError {
  static readonly code = 'SEINE_INVALID_XPATH';
  /** The expression as the user wrote it. */
  readonly query: string;
  /** 0-based character offset in `query` where the problem was found. */
  readonly position: number;
  /** What is wrong, without the expression and position (the message has them). */
  readonly reason: string;

  constructor(query: string, position: number, reason: string, options?: { cause?: unknown }) {
    super(XPathError.code, `Invalid XPath: '${query}' at position ${position}: ${reason}`, options);
    this.query = query;
    this.position = position;
    this.reason = reason;
  }
}

