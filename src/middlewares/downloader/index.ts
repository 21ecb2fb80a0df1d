import type { ComponentClass, DownloaderMiddleware } from '../../contracts/components.js';
import { CookiesMiddleware } from './cookies.js';
import { DefaultHeadersMiddleware } from './default-headers.js';
import { DownloadTimeoutMiddleware } from './download-timeout.js';
import { DownloaderStats } from './downloader-stats.js';
import { HttpAuthMiddleware } from './http-auth.js';
import { HttpCacheMiddleware } from './http-cache.js';
import { HttpProxyMiddleware } from './http-proxy.js';
import { MetaRefreshMiddleware } from './meta-refresh.js';
import { RedirectMiddleware } from './redirect.js';
import { RetryMiddleware } from './retry.js';
import { RetryAfterMiddleware } from './retry-after.js';
import { UserAgentMiddleware } from './user-agent.js';

export { CookiesMiddleware, type CookiesOptions } from './cookies.js';
export { DefaultHeadersMiddleware, type DefaultHeadersOptions } from './default-headers.js';
export { DownloadTimeoutMiddleware, type DownloadTimeoutOptions } from './download-timeout.js';
export { DownloaderStats, type DownloaderStatsOptions } from './downloader-stats.js';
export { HttpAuthMiddleware, basicAuthHeader, type HttpAuthOptions } from './http-auth.js';
export { HttpCacheMiddleware, type HttpCacheOptions } from './http-cache.js';
export type { HttpCachePolicy, HttpCacheStorage, HttpCachePolicyClass, HttpCacheStorageClass, HttpCacheComponentClass } from './http-cache-interfaces.js';
export { DummyPolicy, type DummyPolicyOptions } from './http-cache-dummy-policy.js';
export { RFC2616Policy, type RFC2616PolicyOptions } from './http-cache-rfc2616-policy.js';
export { FilesystemCacheStorage, type FilesystemCacheStorageOptions, type CacheEntryMeta } from './http-cache-filesystem-storage.js';
export { HttpProxyMiddleware, type HttpProxyOptions } from './http-proxy.js';
export { ProxyUrlError } from './proxy-url-error.js';
export { MetaRefreshMiddleware, type MetaRefreshOptions } from './meta-refresh.js';
export { getMetaRefresh, type MetaRefresh } from './meta-refresh-tag.js';
export { RedirectMiddleware, type RedirectOptions } from './redirect.js';
export { RetryMiddleware, type RetryOptions } from './retry.js';
export { RetryAfterMiddleware, RETRY_AFTER_MAX_SECONDS, type RetryAfterOptions, type PausableSlots } from './retry-after.js';
export { getRetryRequest, type GetRetryRequestOptions } from './retry-request.js';
export { retryDelayMs, parseRetryAfter, type RetryDelayOptions } from './retry-delay.js';
export { RETRYABLE_ERROR_CODES, RETRYABLE_ERROR_NAMES, isRetryableError } from './retryable-errors.js';
export { responseStatusMessage } from './status-message.js';
export { UserAgentMiddleware, type UserAgentOptions } from './user-agent.js';
export type { DownloaderSpiderAttributes } from './spider-attributes.js';

/**
 * The built-in downloader middlewares by the names DOWNLOADER_MIDDLEWARES_BASE
 * (src/settings/default-settings.ts) gives them; the orders live there.
 * RobotsTxtMiddleware and HttpCompressionMiddleware are listed there too but
 * are built elsewhere (robots and download stages).
 */
export const DOWNLOADER_MIDDLEWARES_BASE: Readonly<Record<string, ComponentClass<DownloaderMiddleware>>> = Object.freeze({
  HttpAuthMiddleware,
  DownloadTimeoutMiddleware,
  DefaultHeadersMiddleware,
  UserAgentMiddleware,
  RetryMiddleware,
  RetryAfterMiddleware,
  MetaRefreshMiddleware,
  RedirectMiddleware,
  CookiesMiddleware,
  HttpProxyMiddleware,
  DownloaderStats,
  HttpCacheMiddleware,
});
