/**
 * Base class of every error seine raises on purpose. Each subclass has a
 * stable `code` (listed in docs/errors.md; a test keeps the two in step) and a
 * message that says what happened, the offending value, and what to do.
 * The CLI prints `message` on one line and never a stack trace for these.
 */
export class SeineError extends Error {
  /** Stable identifier, e.g. 'SEINE_BAD_SETTING'. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

export function isSeineError(value: unknown): value is SeineError {
  return value instanceof Error && typeof (value as { code?: unknown }).code === 'string' && value instanceof SeineError;
}
