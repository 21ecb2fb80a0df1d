export type { RequestQueue, QueueOrder } from './request-queue.js';
export { MemoryPriorityQueue, type MemoryPriorityQueueOptions } from './memory-priority-queue.js';
export { DownloaderAwarePriorityQueue, type DownloaderAwarePriorityQueueOptions } from './downloader-aware-queue.js';
export { FingerprintDupeFilter, type DupeFilter, type Fingerprint } from './dupe-filter.js';
export { Scheduler, DUPEFILTER_LOGGER, type SchedulerOptions, type SchedulerDependencies } from './scheduler.js';
export { queueOrderSetting, priorityQueueSetting, type PriorityQueueKind } from './queue-settings.js';
