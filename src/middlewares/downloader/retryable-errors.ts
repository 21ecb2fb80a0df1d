/**
 * The download failures worth retrying: the ones a later attempt can cure
 * (Scrapy's EXCEPTIONS_TO_RETRY). The downloader raises them as SeineErrors
 * with these codes (src/download/download-errors.ts); a bare `TimeoutError`
 * (an AbortSignal.timeout() abort, got's timeout) counts too. Matched by code
 * and name rather than class so that errors from another loaded copy of
 * seine are recognised.
 */
export const RETRYABLE_ERROR_CODES: readonly string[] = Object.freeze([
  'SEINE_CONNECTION_REFUSED',
  'SEINE_DNS_LOOKUP_FAILED',
  'SEINE_DOWNLOAD_TIMEOUT',
  'SEINE_CONNECTION_LOST',
  // A browser page whose renderer crashed, or whose browser went away, loads on a second try (src/browser).
  'SEINE_PAGE_CRASHED',
  'SEINE_BROWSER_CLOSED',
]);

export const RETRYABLE_ERROR_NAMES: readonly string[] = Object.freeze(['TimeoutError']);

/** Duck-typed rather than `instanceof Error`: a DOMException or an error from another realm (a vm context) is not an `Error` instance here. */
function isErrorLike(value: unknown): value is { name: string; message: string; code?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as Error).name === 'string' && typeof (value as Error).message === 'string';
}

export function isRetryableError(error: unknown): boolean {
  if (!isErrorLike(error)) return false;
  return (typeof error.code === 'string' && RETRYABLE_ERROR_CODES.includes(error.code)) || RETRYABLE_ERROR_NAMES.includes(error.name);
}
