import { describe, expect, it } from '@jest/globals';
import { SeineError } from '../../../src/errors/seine-error.js';
import { RETRYABLE_ERROR_CODES, isRetryableError } from '../../../src/middlewares/downloader/retryable-errors.js';

describe('isRetryableError', () => {
  it('lists the download failures a later attempt can cure', () => {
    expect(RETRYABLE_ERROR_CODES).toEqual([
      'SEINE_CONNECTION_REFUSED', 'SEINE_DNS_LOOKUP_FAILED', 'SEINE_DOWNLOAD_TIMEOUT', 'SEINE_CONNECTION_LOST',
      // A rendered page whose renderer crashed, or whose browser died under it (src/browser).
      'SEINE_PAGE_CRASHED', 'SEINE_BROWSER_CLOSED',
    ]);
  });

  it('matches errors by code, also errors that are not SeineErrors (another copy of seine)', () => {
    for (const code of RETRYABLE_ERROR_CODES) {
      expect(isRetryableError(new SeineError(code, 'x'))).toBe(true);
      expect(isRetryableError(Object.assign(new Error('x'), { code }))).toBe(true);
    }
  });

  it('matches a TimeoutError by name', () => {
    expect(isRetryableError(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe(true);
    expect(isRetryableError(new DOMException('The operation timed out.', 'TimeoutError'))).toBe(true);
  });

  it('does not match other errors or non-errors', () => {
    expect(isRetryableError(new SeineError('SEINE_INVALID_URL', 'x'))).toBe(false);
    expect(isRetryableError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isRetryableError(new TypeError('x'))).toBe(false);
    expect(isRetryableError({ code: 'SEINE_CONNECTION_REFUSED' })).toBe(false);
    expect(isRetryableError('SEINE_CONNECTION_REFUSED')).toBe(false);
  });
});
