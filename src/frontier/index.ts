/** The shared frontier on Redis (docs/distributed.md): SCHEDULER = 'redis', and `seine frontier`. */
export { RedisScheduler, FRONTIER_LOGGER, type RedisSchedulerDependencies } from './redis-scheduler.js';
export { FrontierClient, type FrontierCounts, type FrontierStatus, type PushEntry, type LeasedRequest } from './frontier-client.js';
export { frontierSettings, usesRedisScheduler, redactRedisUrl, crawlKeyPrefix, type FrontierSettings } from './frontier-settings.js';
export { bloomSize, bloomOffsets, type BloomSize } from './bloom.js';
export { mergeStats } from './merge-stats.js';
export { frontierReport, formatFrontierReport, type FrontierReport, type CrawlState } from './frontier-report.js';
export { RedisUnreachableError, FrontierBusyError } from './frontier-errors.js';
