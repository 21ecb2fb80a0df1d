import { SeineError } from '../errors/seine-error.js';
import { blameCaller } from '../errors/caller-stack.js';
import { quoteQuery } from '../xpath/errors.js';

/**
 * A CSS selector that seine cannot translate: either it does not parse, or it
 * uses something parsel (cssselect 1.2) does not support. seine rejects exactly
 * the selectors parsel rejects, so a spider that fails here fails in Scrapy too.
 */
export class CssError extends SeineError {
  static readonly code = 'SEINE_INVALID_CSS';

  /** The selector as the user wrote it. */
  readonly query: string;
  /**
   * Index of the offending character, counted in Unicode code points (as
   * cssselect counts them); null when the problem has no single place.
   */
  readonly position: number | null;
  /** The reason alone, without the query and position. */
  readonly reason: string;

  constructor(query: string, position: number | null, reason: string) {
    const where = position === null ? '' : ` at position ${position}`;
    super(CssError.code, `Invalid CSS selector ${quoteQuery(query, position, printable)}${where}: ${reason}`);
    this.query = query;
    this.position = position;
    this.reason = reason;
    blameCaller(this, new.target);
  }
}

/**
 * Raised inside the parser and translator, where the whole query is not at
 * hand; cssToXPath turns it into a CssError. `pos` is a UTF-16 index into the
 * string being parsed, or null.
 */
export class CssFailure extends Error {
  readonly pos: number | null;
  readonly reason: string;

  constructor(pos: number | null, reason: string) {
    super(reason);
    this.pos = pos;
    this.reason = reason;
  }
}

// C0/C1 controls and line/paragraph separators: they would break a one-line message.
const UNPRINTABLE_RE = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;

/** Text for an error message: control characters written as escapes, so the message stays on one line. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE_RE, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\t') return '\\t';
    if (ch === '\r') return '\\r';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
