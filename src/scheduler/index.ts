export type { RequestQueue, QueueOrder } from './request-queue.js';
export { MemoryPriorityQueue, type MemoryPriorityQueueOptions } from './memory-priority-queue.js';
export { DownloaderAwarePriorityQueue, type DownloaderAwarePriorityQueueOptions } from './downloader-aware-queue.js';
export { FingerprintDupeFilter, type DupeFilter, type Fingerprint } from './dupe-filter.js';
export { Scheduler, DUPEFILTER_LOGGER, SCHEDULER_LOGGER, type SchedulerOptions, type SchedulerDependencies } from './scheduler.js';
export { queueOrderSetting, priorityQueueSetting, diskQueueOrderSetting, type PriorityQueueKind } from './queue-settings.js';
export { DiskPriorityQueue, type DiskPriorityQueueOptions } from './disk-priority-queue.js';
export { JobdirDupeFilter } from './jobdir-dupe-filter.js';
export { requestToDict, requestFromDict, type RequestDict } from './request-dict.js';
export { RequestSerializationError, JobdirError } from './jobdir-errors.js';
export { jobdirSetting } from './jobdir-setting.js';
/** The shared frontier on Redis (docs/distributed.md): SCHEDULER = 'redis'. */
export { RedisScheduler, FRONTIER_LOGGER, type RedisSchedulerDependencies } from './redis-scheduler.js';
