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
  autothrottle_dont_adjust_delay?: boolean;
  [key: string]: unknown;
}
