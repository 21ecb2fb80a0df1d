/**
 * The request the shell makes for `fetch(url)` and the fetch/view commands
 * make for their URL, as Scrapy's shell does: never duplicate-filtered, and
 * every status reaches the shell — with `redirect: true` all but 3xx (so the
 * redirect middleware still follows redirects), with `redirect: false` all
 * of them (`handle_httpstatus_all`, which the redirect middleware leaves alone).
 */
import { Request } from '../http/request.js';
import { isRequest } from '../http/request.js';
import { targetUrl } from './target-url.js';

export interface ShellRequestOptions {
  /** Follow redirects (default true). */
  readonly redirect?: boolean;
  /** Where relative paths (`./page.html`) are resolved. */
  readonly cwd?: string;
  /** Render the page in the browser (`meta.playwright`); for a Request, only when given. */
  readonly browser?: boolean;
  /** More meta for a URL's request (the page methods of `--wait-for`). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

// Scrapy's SequenceExclude(range(300, 400)); meta values are plain data here, so it is a list.
const ALL_BUT_REDIRECTS: readonly number[] = Array.from({ length: 900 }, (_, i) => 100 + i).filter((status) => status < 300 || status >= 400);

export function statusMeta(redirect: boolean): Record<string, unknown> {
  return redirect ? { handle_httpstatus_list: [...ALL_BUT_REDIRECTS] } : { handle_httpstatus_all: true };
}

/**
 * A URL becomes a new request; a Request is used as given, with the
 * status meta added only where the user set none, so `fetch(request)` of a
 * 404 still updates `response`.
 */
export function shellRequest(target: string | Request, options: ShellRequestOptions = {}): Request {
  const redirect = options.redirect ?? true;
  const browser = options.browser === undefined ? {} : { playwright: options.browser };
  if (isRequest(target)) {
    const meta = target.meta;
    if ('handle_httpstatus_list' in meta || 'handle_httpstatus_all' in meta) return options.browser === undefined ? target : target.replace({ meta: { ...meta, ...browser } });
    return target.replace({ meta: { ...meta, ...statusMeta(redirect), ...browser } });
  }
  return new Request(targetUrl(String(target), options.cwd ?? process.cwd()), { dontFilter: true, meta: { ...statusMeta(redirect), ...browser, ...options.meta } });
}
