import { SeineError } from '../errors/seine-error.js';

/** A URL a Request cannot be made from. */
export class InvalidUrlError extends SeineError {
  static readonly code = 'SEINE_INVALID_URL';
  readonly url: string;

  constructor(url: string, reason: string) {
    super(InvalidUrlError.code, `${reason}: '${url}' (write an absolute URL such as 'https://example.com/page', or use response.follow() for a relative link)`);
    this.url = url;
  }
}
