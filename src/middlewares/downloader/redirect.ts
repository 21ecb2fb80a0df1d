import type { DownloaderMiddleware } from '../../contracts/components.js';
import { NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler } from '../../contracts/crawler.js';
import { safeUrl, type Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import type { StatsCollector } from '../../contracts/crawler.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import { DEFAULT_SETTINGS } from '../../settings/index.js';
import type { Spider } from '../../contracts/spider.js';
import type { ComponentOptions } from '../spider/component-options.js';
import { metaStatuses } from './meta-values.js';
import { REDIRECT_LOGGER, buildRedirectRequest, checkRedirectLoop, followRedirect, type RedirectPolicy } from './redirect-request.js';
import { spiderAttribute } from './spider-attributes.js';

export interface RedirectOptions extends ComponentOptions {
  /** REDIRECT_MAX_TIMES. Default 20. */
  maxRedirectTimes?: number;
  /** REDIRECT_PRIORITY_ADJUST. Default 2. */
  priorityAdjust?: number;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The Location header as the server meant it. Node reads header bytes as
 * latin1, so a UTF-8 Location (common, though not allowed) arrives as
 * mojibake; Scrapy decodes it as UTF-8, and so does this when the bytes are
 * valid UTF-8.
 */
export function decodeLocation(raw: string): string {
  if (!/[\x80-\xff]/.test(raw) || /[^\x00-\xff]/.test(raw)) return raw;
  try {
    return UTF8.decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}

/** Where a Location value leads: an http(s) URL to follow, or why it is refused. */
export type LocationVerdict = { readonly url: string } | { readonly refused: string; readonly reason: 'not an http(s) URL' | 'not a valid URL' };

/** The absolute URL a Location value points to from `base`, or null when it names no http(s) URL. */
export function resolveLocation(location: string, base: string): string | null {
  const verdict = judgeLocation(location, base);
  return 'url' in verdict ? verdict.url : null;
}

/** resolveLocation, saying why a Location is not followed. */
export function judgeLocation(location: string, base: string): LocationVerdict {
  const raw = decodeLocation(location);
  let href = safeUrl(raw);
  // Scheme-relative, with any number of slashes (`///host/path` too), as Scrapy reads it.
  if (raw.startsWith('//')) href = `${new URL(base).protocol}//${href.replace(/^\/+/, '')}`;
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return { refused: raw, reason: 'not a valid URL' };
  }
  // Scrapy 2.8 followed any scheme (a server could make it read file:///etc/passwd); browsers only http(s).
  return url.protocol === 'http:' || url.protocol === 'https:' ? { url: url.href } : { refused: url.href, reason: 'not an http(s) URL' };
}

/** Which redirects turn the request into a GET without body. */
function redirectsUsingGet(status: number, method: string): boolean {
  if (method === 'HEAD') return false;
  if (status === 302 || status === 303) return true;
  // Scrapy 2.8 kept POST on a 301; browsers, the Fetch standard and later Scrapy turn it into GET.
  return status === 301 && method === 'POST';
}

/**
 * Follows HTTP redirects (Scrapy's RedirectMiddleware): 301, 302, 303, 307
 * and 308 with a Location header. 302 and 303 turn any method but HEAD into
 * a GET without body, 301 turns POST into GET, 307 and 308 keep the method
 * and body. Relative and scheme-relative Locations are resolved against the
 * request URL. Responses are passed on untouched when `meta.dont_redirect`
 * is set, when their status is in the spider's `handleHttpstatusList` or in
 * `meta.handle_httpstatus_list`, or when `meta.handle_httpstatus_all` is set.
 *
 * seine reports what Scrapy 2.8 leaves silent (docs/security.md,
 * "Redirects"): a Location that is not an http(s) URL is refused with a
 * WARNING (`Refusing to follow the redirect (302) of <GET …> to 'ftp://…':
 * not an http(s) URL`, stat `redirect/refused_scheme`; an unparsable one
 * `redirect/refused_invalid`) and the 3xx response passes on as before; a
 * redirect back into its own chain is a WARNING `Redirect loop: <GET a> →
 * <GET b> → <GET a>` once per request (stat `redirect/loop`), dropped with
 * IgnoreRequest unless the request is dontFilter.
 */
export class RedirectMiddleware implements DownloaderMiddleware, RedirectPolicy {
  readonly maxRedirectTimes: number;
  readonly priorityAdjust: number;
  readonly stats: StatsCollector | undefined;
  readonly #logger: Logger;

  constructor(options: RedirectOptions = {}) {
    this.stats = options.stats;
    this.maxRedirectTimes = options.maxRedirectTimes ?? DEFAULT_SETTINGS.REDIRECT_MAX_TIMES;
    this.priorityAdjust = options.priorityAdjust ?? DEFAULT_SETTINGS.REDIRECT_PRIORITY_ADJUST;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger(REDIRECT_LOGGER);
  }

  static fromCrawler(crawler: Crawler): RedirectMiddleware {
    const { settings } = crawler;
    if (!settings.getBool('REDIRECT_ENABLED')) throw new NotConfigured('REDIRECT_ENABLED is off');
    return new RedirectMiddleware({
      maxRedirectTimes: settings.getInt('REDIRECT_MAX_TIMES'),
      priorityAdjust: settings.getInt('REDIRECT_PRIORITY_ADJUST'),
      logBus: crawler.logBus,
      stats: crawler.stats,
    });
  }

  processResponse(request: Request, response: Response, spider: Spider): Request | Response {
    const { meta } = request;
    if (
      meta.dont_redirect ||
      (spiderAttribute(spider, 'handleHttpstatusList') ?? []).includes(response.status) ||
      metaStatuses(meta, 'handle_httpstatus_list').includes(response.status) ||
      meta.handle_httpstatus_all
    ) {
      return response;
    }
    const location = response.headers.get('Location');
    if (location === null || !REDIRECT_STATUSES.has(response.status)) return response;
    const verdict = judgeLocation(location, request.url);
    if (!('url' in verdict)) {
      // The response goes on to the spider middlewares, as before; the WARNING says why it was not followed.
      const shown = verdict.refused.length > 200 ? `${verdict.refused.slice(0, 200)}…` : verdict.refused;
      this.#logger.warning(`Refusing to follow the redirect (${response.status}) of ${request.toString()} to '${shown}': ${verdict.reason}`, { spider });
      this.stats?.inc(verdict.reason === 'not an http(s) URL' ? 'redirect/refused_scheme' : 'redirect/refused_invalid');
      return response;
    }
    const redirected = buildRedirectRequest(request, verdict.url, redirectsUsingGet(response.status, request.method));
    const setsCookie = response.headers.has('Set-Cookie');
    const cookieWall = checkRedirectLoop(redirected, request, this, this.#logger, spider, setsCookie);
    return followRedirect(redirected, request, response.status, this, this.#logger, spider, { cookieWall, setsCookie });
  }
}
