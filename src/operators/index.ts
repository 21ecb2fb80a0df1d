/**
 * `seine/operators`: the stages of seine's pipeline and the components they
 * are built on, for users who assemble their own flow (docs/streams.md,
 * docs/operators.md).
 *
 * Two families: the standalone operators (dedupe, robots, downloadWith,
 * feedSink) need only their options; the engine's stages (schedule,
 * throttle, download, gate, scrape, itemPipeline) share one EngineState,
 * the per-run object the engine builds, and are exported for code that
 * drives an EngineState of its own.
 */

// Standalone operators.
export { dedupe, robots, downloadWith, type DedupeOptions, type RobotsOptions, type DownloadWithOptions, type FetchSettings } from './standalone/index.js';
export { feedSink, FeedError, type FeedSinkOptions } from './feed-sink.js';

// The engine's stages, in the order docs/architecture.md numbers them, and the per-run state they share.
export { schedule } from '../engine/schedule.js';
export { throttle } from '../engine/throttle.js';
export { download, type DownloadedTicket } from '../engine/download.js';
export { gate } from '../engine/gate.js';
export { scrape, type Scraped } from '../engine/scrape.js';
export { itemPipeline, type ScrapedItem } from '../engine/item-pipeline.js';
export { EngineState, type EngineScheduler, type EngineSlots, type EngineOptions } from '../engine/engine-state.js';
export { Ticket, TicketBook, type TicketPhase, type TicketOutcome } from '../engine/ticket.js';
export type { DownloadOutcome } from '../engine/downloader-chain.js';

// The components the stages are built on, each with a plain constructor of typed options. Named one by
// one: the folders' helpers (setting readers, meta-key names, stats stubs) are not part of the API.
export {
  CookiesMiddleware, DefaultHeadersMiddleware, DownloadTimeoutMiddleware, DownloaderStats, HttpAuthMiddleware, basicAuthHeader,
  HttpCacheMiddleware, DummyPolicy, RFC2616Policy, FilesystemCacheStorage, HttpProxyMiddleware, ProxyUrlError, MetaRefreshMiddleware,
  RedirectMiddleware, RetryMiddleware, RetryAfterMiddleware, getRetryRequest, retryDelayMs, parseRetryAfter, isRetryableError, UserAgentMiddleware,
  type CookiesOptions, type DefaultHeadersOptions, type DownloadTimeoutOptions, type DownloaderStatsOptions, type HttpAuthOptions,
  type HttpCacheOptions, type HttpCachePolicy, type HttpCacheStorage, type HttpCachePolicyClass, type HttpCacheStorageClass,
  type DummyPolicyOptions, type RFC2616PolicyOptions, type FilesystemCacheStorageOptions, type CacheEntryMeta, type HttpProxyOptions,
  type MetaRefreshOptions, type RedirectOptions, type RetryOptions, type RetryAfterOptions, type GetRetryRequestOptions, type RetryDelayOptions, type UserAgentOptions,
} from '../middlewares/downloader/index.js';
export {
  DepthMiddleware, HttpError, HttpErrorMiddleware, isHttpError, OffsiteMiddleware, RefererMiddleware, ReferrerPolicyError, UrlLengthMiddleware,
  type DepthOptions, type HttpErrorOptions, type OffsiteOptions, type RefererOptions, type ReferrerPolicy, type ReferrerPolicySpec,
  type UrlLengthOptions, type ComponentOptions,
} from '../middlewares/spider/index.js';
export { RobotsCache, RobotsRules, RobotsTxtMiddleware, type DownloadFn, type RobotsCacheOptions, type RobotsTxtOptions } from '../robots/index.js';
export {
  Scheduler, MemoryPriorityQueue, DownloaderAwarePriorityQueue, DiskPriorityQueue, FingerprintDupeFilter, JobdirDupeFilter,
  requestToDict, requestFromDict, RequestSerializationError, JobdirError,
  type RequestQueue, type QueueOrder, type MemoryPriorityQueueOptions, type DownloaderAwarePriorityQueueOptions, type DupeFilter,
  type Fingerprint, type SchedulerOptions, type SchedulerDependencies, type DiskPriorityQueueOptions, type RequestDict,
} from '../scheduler/index.js';
export { DownloadSlots, DownloadSlot, readSlotSettings, type DownloadSlotsOptions, type SlotOverrides, type SharedRate } from '../throttle/index.js';
export { createNodeFetch, httpFetchOptionsFromSettings, type HttpFetch, type HttpFetchOptions } from '../download/fetch-node.js';
// got itself is imported by the first createGotFetch() call, not by `seine/operators`.
export { createGotFetch } from '../download/got-fetch-lazy.js';
export { gotFetchOptionsFromSettings, type GotFetchOptions } from '../download/got-options.js';
export type { GotFetch } from '../download/fetch-got.js';
export type { FetchFn, FetchOptions } from '../download/fetch-contract.js';
export { fingerprint, type FingerprintOptions } from '../http/fingerprint.js';
