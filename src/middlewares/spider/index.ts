/**
 * The built-in spider middlewares, and `SPIDER_MIDDLEWARES_BASE`'s names
 * mapped to their classes: the engine looks names from
 * `settings.getWithBase('SPIDER_MIDDLEWARES')` up here, and orders them by
 * the numbers there (HttpError 50, Offsite 500, Referer 700, UrlLength 800,
 * Depth 900, as in Scrapy 2.8).
 */
import type { SpiderMiddleware } from '../../contracts/components.js';
import type { Crawler } from '../../contracts/crawler.js';
import { DepthMiddleware } from './depth.js';
import { HttpErrorMiddleware } from './http-error.js';
import { OffsiteMiddleware } from './offsite.js';
import { RefererMiddleware } from './referer.js';
import { UrlLengthMiddleware } from './url-length.js';

export { DepthMiddleware, type DepthOptions } from './depth.js';
export { HttpError, HttpErrorMiddleware, isHttpError, type HttpErrorOptions } from './http-error.js';
export { OffsiteMiddleware, isLocalSchemeFromRemote, LOCAL_SCHEMES, type OffsiteOptions } from './offsite.js';
export { RefererMiddleware, type RefererOptions } from './referer.js';
export { ReferrerPolicyError } from './referrer-policy-error.js';
export * as referrerPolicies from './referrer-policies.js';
export type { ReferrerPolicy, ReferrerPolicySpec } from './referrer-policies.js';
export { UrlLengthMiddleware, type UrlLengthOptions } from './url-length.js';
export { NULL_STATS, type ComponentOptions } from './component-options.js';

/** A built-in spider middleware class: constructible with no arguments, or from a crawler. */
export type BuiltinSpiderMiddlewareClass = (new () => SpiderMiddleware) & { fromCrawler(crawler: Crawler): SpiderMiddleware };

export const SPIDER_MIDDLEWARES_BASE: Readonly<Record<string, BuiltinSpiderMiddlewareClass>> = Object.freeze({
  HttpErrorMiddleware,
  OffsiteMiddleware,
  RefererMiddleware,
  UrlLengthMiddleware,
  DepthMiddleware,
});
