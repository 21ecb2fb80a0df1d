import { SeineError } from '../errors/seine-error.js';
import { blameCaller } from '../errors/caller-stack.js';

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
    super(XPathError.code, `Invalid XPath: ${quoteQuery(query, position)} at position ${position}: ${reason}`, options);
    this.query = query;
    this.position = position;
    this.reason = reason;
    blameCaller(this, new.target);
  }
}


/** Queries longer than this are shortened in error messages (the error's `query` keeps all of it). */
export const QUOTED_QUERY_LIMIT = 200;

/**
 * A query as an error message quotes it: whole when short; otherwise its
 * start, its length, and the text around `position`, so that a generated
 * query of 100,000 characters makes a one-line message, not a 100 KB one.
 */
export function quoteQuery(query: string, position: number | null, show: (text: string) => string = (t) => t): string {
  if (query.length <= QUOTED_QUERY_LIMIT) return `'${show(query)}'`;
  const head = `'${show(query.slice(0, 60))}…' (${query.length} characters`;
  if (position === null || position < 60) return head + ')';
  const from = Math.max(0, position - 30);
  const to = Math.min(query.length, position + 30);
  return `${head}; around the position: '${from > 0 ? '…' : ''}${show(query.slice(from, to))}${to < query.length ? '…' : ''}')`;
}
