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

// The engine's stages, in the order docs/architecture.md numbers them.
export { schedule } from './schedule.js';
export { throttle } from './throttle.js';
export { download } from './download.js';
export { gate } from './gate.js';
export { scrape, type Scraped } from './scrape.js';
export { itemPipeline, type ScrapedItem } from './item-pipeline.js';
export { EngineState, type EngineScheduler, type EngineSlots } from '../core/engine-state.js';
export type { DownloadOutcome } from '../core/downloader-chain.js';

// The components the stages are built on.
export * from '../middlewares/downloader/index.js';
export * from '../middlewares/spider/index.js';
export * from '../robots/index.js';
export * from '../scheduler/index.js';
export * from '../throttle/index.js';
export { createGotFetch, gotFetchOptionsFromSettings, type GotFetch, type GotFetchOptions } from '../download/fetch-got.js';
export type { FetchFn, FetchOptions } from '../download/fetch-contract.js';
export { fingerprint, type FingerprintOptions } from '../http/fingerprint.js';
