/** The meta key of a download's latency in seconds, as Scrapy's `download_latency` (AutoThrottle reads it). */
export const DOWNLOAD_LATENCY = 'download_latency';

/**
 * The `meta` keys seine itself reads or writes, with their types (Scrapy's
 * names: docs/spiders.md lists what each does). Any other key is the
 * user's and holds any value; a JOBDIR stores only JSON values.
 */
export interface RequestMeta {
  /** How many links away from a start request (DepthMiddleware). */
  depth?: number;
  /** Seconds before the download times out (DOWNLOAD_TIMEOUT for this request). */
  download_timeout?: number;
  /** Bytes above which the download is cancelled (DOWNLOAD_MAXSIZE for this request). */
  download_maxsize?: number;
  /** Bytes above which a warning is logged (DOWNLOAD_WARNSIZE for this request). */
  download_warnsize?: number;
  /** Written by the downloader: seconds from the start of the fetch to its response (AutoThrottle reads it). */
  download_latency?: number;
  /** The download slot's key, instead of the request's host. */
  download_slot?: string;
  /** False: a response shorter than its Content-Length is an error, not a `dataloss` flag. */
  download_fail_on_dataloss?: boolean;
  /** The proxy URL for this request; null: none, whatever the environment says. */
  proxy?: string | null;
  /** True: the HTTP handler streams a 200 body to a temporary file (`response.bodyFile`) instead of memory; the media pipelines set it. */
  body_to_file?: boolean;
  dont_redirect?: boolean;
  dont_retry?: boolean;
  dont_cache?: boolean;
  dont_obey_robotstxt?: boolean;
  dont_merge_cookies?: boolean;
  /** Which cookie jar (CookiesMiddleware) the request uses. */
  cookiejar?: unknown;
  handle_httpstatus_list?: number[];
  handle_httpstatus_all?: boolean;
  /** Written by RedirectMiddleware. */
  redirect_times?: number;
  redirect_ttl?: number;
  redirect_urls?: string[];
  redirect_reasons?: Array<number | string>;
  /** Written by RetryMiddleware: how many times it was retried. */
  retry_times?: number;
  max_retry_times?: number;
  /** A Referrer-Policy name or class for this request (RefererMiddleware). */
  referrer_policy?: string;
  /** Added to a retry's priority instead of RETRY_PRIORITY_ADJUST. */
  priority_adjust?: number;
  /** Written by RetryMiddleware: milliseconds the download slot holds the retry back (its backoff, or Retry-After). */
  retry_delay_ms?: number;
  autothrottle_dont_adjust_delay?: boolean;
  /** Render the page in the browser (true), or not even under PLAYWRIGHT_BY_DEFAULT (false); 'auto': plain first, rendered when the page needs it (src/adaptive/). */
  playwright?: boolean | 'auto';
  /** With playwright 'auto': the kind of page learned about, instead of the callback's name (src/adaptive/page-kind.ts). */
  playwright_auto_kind?: string;
  /** Written by AdaptiveRenderingMiddleware on the rendering of a plain page that did not suffice. */
  _playwright_auto_plain?: unknown;
  /** A named browser context (PLAYWRIGHT_CONTEXTS), kept for the crawl; absent: a pooled one. */
  playwright_context?: string;
  /** PageMethod steps run on the page once it has loaded, in order. */
  playwright_page_methods?: readonly unknown[];
  /** Options for the page's `goto()` (waitUntil, referer, timeout). */
  playwright_page_goto_kwargs?: Record<string, unknown>;
  /** Keep the page open and hand it to the callback as `meta.playwright_page` (which must close it). */
  playwright_include_page?: boolean;
  /** Written by the browser download with `playwright_include_page`: playwright-core's Page. */
  playwright_page?: unknown;
  /** Which of a CrawlSpider's rules extracted the request (an index into its rules). */
  rule?: number;
  /** Written by CrawlSpider: the text of the link the request follows. */
  link_text?: string;
  /** Written by HttpProxyMiddleware: the proxy came from the environment, so a redirect to another scheme drops it. */
  _scheme_proxy?: boolean;
  /** Written by HttpProxyMiddleware: the proxy URL its Proxy-Authorization header belongs to. */
  _auth_proxy?: string | null;
  /** Written by ProxyPoolMiddleware (or the session pool): the pool proxy's id (no credentials) the outcome is credited to; null: no proxy (an empty tier). */
  _pool_proxy?: string | null;
  /** Written by ProxyPoolMiddleware under PROXY_TIERS: the tier the request was sent at. */
  _pool_tier?: number;
  /** Written by ProxyPoolMiddleware: how many times the request was sent again through another proxy. */
  proxy_retry_times?: number;
  /** Written by HttpCacheMiddleware: the stale cached response kept while the request revalidates. */
  cached_response?: unknown;
  /** Written by HttpCacheMiddleware: the policy will not cache this request's response. */
  _dont_cache?: boolean;
  /** Written by CookiesMiddleware: the Cookie header it sent and the one the request came with. */
  _cookie_header?: unknown;
  /** Written by `seine parse`: the level a request was found at, and the callback it asked for. */
  _depth?: number;
  _callback?: unknown;
  /** Any other key is the user's. */
  [key: string]: unknown;
}
