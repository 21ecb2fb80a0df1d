import { SeineError } from '../errors/seine-error.js';
import { DownloadError } from '../download/download-errors.js';

/** No Chromium to render pages with: none on PATH, or PLAYWRIGHT_LAUNCH_OPTIONS.executablePath names a missing file. */
export class NoChromiumError extends SeineError {
  static readonly code = 'SEINE_NO_CHROMIUM';
  constructor(message: string) {
    super(NoChromiumError.code, message);
  }
}

/** The browser could not be started (the executable is not Chromium, a launch option is wrong). */
export class BrowserLaunchError extends SeineError {
  static readonly code = 'SEINE_BROWSER_LAUNCH';
  constructor(executable: string, reason: string, options?: { cause?: unknown }) {
    super(BrowserLaunchError.code, `Cannot start the browser ${executable}: ${reason} — check PLAYWRIGHT_LAUNCH_OPTIONS`, options);
  }
}

/** The page's renderer crashed (out of memory, killed) while it loaded: retried as a lost connection is. */
export class PageCrashedError extends DownloadError {
  static override readonly code: string = 'SEINE_PAGE_CRASHED';
  constructor(url: string) {
    super(url, `The browser page crashed while loading ${url}`);
  }
}

/** The browser went away (killed, crashed) while the page loaded: retried; the next page starts a new browser. */
export class BrowserClosedError extends DownloadError {
  static override readonly code: string = 'SEINE_BROWSER_CLOSED';
  constructor(url: string, options?: { cause?: unknown }) {
    super(url, `The browser closed while loading ${url}`, options);
  }
}

/** A step of meta.playwright_page_methods failed (a selector never appeared, a click found nothing). */
export class PageMethodError extends DownloadError {
  static override readonly code: string = 'SEINE_PAGE_METHOD';
  constructor(url: string, step: string, reason: string, options?: { cause?: unknown }) {
    super(url, `Page method ${step} failed on ${url}: ${reason}`, options);
  }
}
