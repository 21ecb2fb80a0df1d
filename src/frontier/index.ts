/** The shared frontier's store on Redis (docs/distributed.md): its client, settings and report, for the Redis scheduler (src/scheduler/redis-scheduler.ts) and `seine frontier`. */
export { FrontierClient, type FrontierCounts, type FrontierStatus, type PushEntry, type LeasedRequest } from './frontier-client.js';
export { frontierSettings, usesRedisScheduler, redactRedisUrl, crawlKeyPrefix, type FrontierSettings } from './frontier-settings.js';
export { bloomSize, bloomOffsets, type BloomSize } from './bloom.js';
export { mergeStats } from './merge-stats.js';
export { frontierReport, formatFrontierReport, type FrontierReport, type CrawlState } from './frontier-report.js';
export { RedisUnreachableError, FrontierBusyError } from './frontier-errors.js';
export { RedisRateBuckets } from './rate-buckets.js';
