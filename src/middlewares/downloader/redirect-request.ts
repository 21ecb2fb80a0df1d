import { IgnoreRequest } from '../../contracts/control-flow.js';
import type { StatsCollector } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import type { Logger } from '../../log/index.js';
import type { Spider } from '../../contracts/spider.js';
import { metaArray, metaNumber } from './meta-values.js';

export const REDIRECT_LOGGER = 'seine.downloadermiddlewares.redirect';

/**
 * What RedirectMiddleware and MetaRefreshMiddleware share (Scrapy's
 * BaseRedirectMiddleware): building the request to follow, and the
 * REDIRECT_MAX_TIMES bookkeeping in meta.
 */
export interface RedirectPolicy {
  /** REDIRECT_MAX_TIMES: redirects one request may follow. */
  readonly maxRedirectTimes: number;
  /** REDIRECT_PRIORITY_ADJUST: added to a redirect's priority. */
  readonly priorityAdjust: number;
  /** Where `redirect/loop` is counted; nowhere when absent. */
  readonly stats?: StatsCollector;
}

/**
 * The loop `redirected` closes, as the requests from the first visit of its
 * URL to itself (`[a, b, a]`), or null when its URL is new to the chain.
 * A hop that changes the method (POST /form → 303 → GET /form, the
 * post/redirect/get pattern) closes no loop. The methods of earlier hops are
 * not kept in meta, so the chain is shown with the method of this hop.
 */
export function redirectLoop(redirected: Request, source: Request): string[] | null {
  if (redirected.method !== source.method) return null;
  const urls = [...(metaArray(source.meta, 'redirect_urls') as string[]), source.url];
  const first = urls.indexOf(redirected.url);
  if (first < 0) return null;
  return [...urls.slice(first), redirected.url].map((url) => `<${redirected.method} ${url}>`);
}

/** True when the chain that led to `source` already went through one URL twice (a loop already reported). */
export function chainRepeats(source: Request): boolean {
  const urls = [...(metaArray(source.meta, 'redirect_urls') as string[]), source.url];
  return new Set(urls).size !== urls.length;
}

function sameOrigin(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.hostname === b.hostname && a.port === b.port;
}

/**
 * The request that follows a redirect of `source` to `url` (absolute). With
 * `useGet` it becomes a GET without body, Content-Type or Content-Length.
 * Credentials do not follow to another site: `Cookie` is dropped when the
 * host changes or https falls back to http, `Authorization` when the origin
 * (scheme, host, port) changes. Scrapy 2.8 dropped only `Cookie`, on any
 * netloc change; later Scrapy drops both as here. A proxy that
 * HttpProxyMiddleware took from the environment for the old scheme is
 * forgotten when the scheme changes, so the new scheme's proxy is used.
 */
export function buildRedirectRequest(source: Request, url: string, useGet: boolean): Request {
  // Request cookies went into the jar with the first request; Scrapy drops them from redirects so they cannot reach another site.
  const redirected = useGet ? source.replace({ url, method: 'GET', body: '', cookies: {} }) : source.replace({ url, cookies: {} });
  if (useGet) {
    redirected.headers.delete('Content-Type');
    redirected.headers.delete('Content-Length');
  }
  const from = new URL(source.url);
  const to = new URL(redirected.url);
  if (from.hostname !== to.hostname || (from.protocol !== to.protocol && to.protocol !== 'https:')) {
    redirected.headers.delete('Cookie');
  }
  if (!sameOrigin(from, to)) redirected.headers.delete('Authorization');
  if ('_scheme_proxy' in redirected.meta && from.protocol !== to.protocol) {
    delete redirected.meta._scheme_proxy;
    delete redirected.meta.proxy;
    delete redirected.meta._auth_proxy;
    redirected.headers.delete('Proxy-Authorization');
  }
  // The wait a retry asked for was spent before this response came; the redirect goes at once.
  delete redirected.meta.retry_delay_ms;
  return redirected;
}

/**
 * Reports the loop `redirected` closes, once per request: a WARNING
 * `Redirect loop: <GET a> → <GET b> → <GET a>` and `redirect/loop`. Without
 * dontFilter the duplicate filter would drop it without a word (Scrapy 2.8:
 * `Filtered duplicate request` at DEBUG), so it throws IgnoreRequest here;
 * a dontFilter request is followed, and REDIRECT_MAX_TIMES ends it.
 * RedirectMiddleware and MetaRefreshMiddleware call it.
 */
export function checkRedirectLoop(redirected: Request, source: Request, policy: RedirectPolicy, logger: Logger, spider: Spider, setsCookie = false): boolean {
  const loop = redirectLoop(redirected, source);
  if (loop === null || chainRepeats(source)) return false;
  if (setsCookie || source.meta[COOKIE_SET_IN_CHAIN] === true) {
    // A cookie wall (page → /challenge sets a cookie → the page again) is not a loop: the page comes back with
    // the cookie. Followed past the duplicate filter; REDIRECT_MAX_TIMES still ends a wall that never lets in.
    policy.stats?.inc('redirect/cookie_wall');
    logger.debug(`Following ${loop.join(' → ')}: a cookie was set on the way (a cookie wall, not a loop)`, { spider });
    return true;
  }
  policy.stats?.inc('redirect/loop');
  if (!source.dontFilter) {
    // The duplicate filter would drop it without a word: dropped here, said why.
    logger.warning(`Redirect loop: ${loop.join(' → ')} (not followed: ${loop[0]} was already requested)`, { spider });
    throw new IgnoreRequest('redirect loop');
  }
  logger.warning(`Redirect loop: ${loop.join(' → ')} (followed: the request is dontFilter; REDIRECT_MAX_TIMES ends it)`, { spider });
  return false;
}

/** Meta key: a response of this redirect chain set a cookie (checkRedirectLoop's cookie wall). */
export const COOKIE_SET_IN_CHAIN = '_redirect_set_cookie';

/**
 * `redirected` with Scrapy's redirect meta (`redirect_times`, `redirect_ttl`,
 * `redirect_urls`, `redirect_reasons`), `source`'s dontFilter and an adjusted
 * priority; logs `Redirecting (<reason>) to <GET new> from <GET old>` at
 * DEBUG. Past REDIRECT_MAX_TIMES (a redirect loop ends there too) it logs
 * `Discarding <GET old>: max redirections reached` and throws IgnoreRequest.
 */
export function followRedirect(
  redirected: Request,
  source: Request,
  reason: number | string,
  policy: RedirectPolicy,
  logger: Logger,
  spider: Spider,
  options: { cookieWall?: boolean; setsCookie?: boolean } = {},
): Request {
  if (!('redirect_ttl' in source.meta)) source.meta.redirect_ttl = policy.maxRedirectTimes;
  const ttl = metaNumber(source.meta, 'redirect_ttl') ?? 0;
  const redirects = (metaNumber(source.meta, 'redirect_times') ?? 0) + 1;
  if (ttl && redirects <= policy.maxRedirectTimes) {
    const followed = redirected.replace({
      dontFilter: source.dontFilter || options.cookieWall === true,
      priority: source.priority + policy.priorityAdjust,
      meta: {
        ...redirected.meta,
        ...(options.setsCookie === true ? { [COOKIE_SET_IN_CHAIN]: true } : {}),
        redirect_times: redirects,
        redirect_ttl: ttl - 1,
        redirect_urls: [...(metaArray(source.meta, 'redirect_urls') as string[]), source.url],
        redirect_reasons: [...(metaArray(source.meta, 'redirect_reasons') as Array<number | string>), reason],
      },
    });
    logger.debug(`Redirecting (${reason}) to ${followed.toString()} from ${source.toString()}`, { spider });
    return followed;
  }
  logger.debug(`Discarding ${source.toString()}: max redirections reached`, { spider });
  throw new IgnoreRequest('max redirections reached');
}
