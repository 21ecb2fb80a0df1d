import { SeineError } from '../errors/seine-error.js';

/**
 * A URL a Request cannot be made from: no scheme (`Missing scheme in request
 * url: /page`, Scrapy's words), a port or IPv6 address Python's URL parser
 * rejects, a URL the URL standard cannot parse, or a character the request's
 * encoding cannot write. The message carries the URL and what to do.
 */
export class InvalidUrlError extends SeineError {
  static readonly code = 'SEINE_INVALID_URL';
  readonly url: string;

  constructor(url: string, message: string) {
    super(InvalidUrlError.code, message);
    this.url = url;
  }

  /** A character of the query or fragment that the request's (the page's) encoding cannot write; Python raises UnicodeEncodeError. */
  static unencodable(url: string, character: string, encoding: string): InvalidUrlError {
    return new InvalidUrlError(
      url,
      `Cannot encode '${character}' in ${encoding} for request url: ${url} ` +
        "(the query and fragment are encoded in the request's encoding: pass { encoding: 'utf-8' } or percent-encode the URL)",
    );
  }
}

/** `css()`, `xpath()` or `selector` on a response whose body is not text (an image, a PDF, …). */
export class NotTextResponseError extends SeineError {
  static readonly code = 'SEINE_NOT_TEXT_RESPONSE';
  readonly url: string;

  constructor(url: string, contentType: string | null, method: string) {
    super(
      NotTextResponseError.code,
      `Response content isn't text: ${method} needs an HTML, XML or text response, but ${url} is binary ` +
        `(Content-Type: ${contentType ?? 'none'}); read response.body for the bytes`,
    );
    this.url = url;
  }
}

/**
 * `text` (and so `css()`, `xpath()`, `json()`, links) on a response whose
 * body is longer than the longest string JavaScript can hold (~512 MiB).
 */
export class TextTooLargeError extends SeineError {
  static readonly code = 'SEINE_TEXT_TOO_LARGE';
  readonly url: string;
  readonly byteLength: number;

  constructor(url: string, byteLength: number, encoding: string, maxLength: number) {
    super(
      TextTooLargeError.code,
      `Cannot decode the body of ${url} as text: ${byteLength} bytes of ${encoding} can make more than ${maxLength} characters, ` +
        `the longest string JavaScript holds; read response.body for the bytes, or lower DOWNLOAD_MAXSIZE to skip such pages`,
    );
    this.url = url;
    this.byteLength = byteLength;
  }
}

/** `follow()` given something no link can be taken from: an element other than `<a>`/`<link>`, one without href, a number. */
export class FollowTargetError extends SeineError {
  static readonly code = 'SEINE_FOLLOW_TARGET';

  constructor(message: string) {
    super(FollowTargetError.code, message);
  }
}

/** `response.meta` / `cbKwargs` on a response that was made without a request. */
export class DetachedResponseError extends SeineError {
  static readonly code = 'SEINE_DETACHED_RESPONSE';

  constructor(property: string, response: string) {
    super(
      DetachedResponseError.code,
      `Response.${property} not available, this response is not tied to any request: ${response} ` +
        '(pass { request } when constructing the Response)',
    );
  }
}
