import { SeineError } from '../errors/seine-error.js';

/** `view(response)` on a binary response (an image, a PDF): there is no page to show. */
export class NotViewableResponseError extends SeineError {
  static readonly code = 'SEINE_NOT_VIEWABLE';
  readonly url: string;

  constructor(url: string, contentType: string | null) {
    super(
      NotViewableResponseError.code,
      `view() shows HTML and text responses only, but ${url} is binary (Content-Type: ${contentType ?? 'none'}); ` +
        'write response.body to a file to open it with another program',
    );
    this.url = url;
  }
}

/** `view(response)` found no program to open the page with. The page was written all the same: the message gives its path. */
export class NoBrowserError extends SeineError {
  static readonly code = 'SEINE_NO_BROWSER';
  /** The file view() wrote, left in place for the user to open. */
  readonly file: string;

  constructor(file: string, tried: readonly string[]) {
    super(
      NoBrowserError.code,
      `No browser found to open ${file} (tried ${tried.join(', ')}): set BROWSER to a browser command, ` +
        `e.g. BROWSER=firefox or BROWSER='chromium %s', or open the file yourself`,
    );
    this.file = file;
  }
}
