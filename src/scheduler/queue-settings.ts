/**
 * SCHEDULER_MEMORY_QUEUE and SCHEDULER_PRIORITY_QUEUE hold Scrapy's class
 * paths; seine maps them to its own queues, and also accepts short names.
 */
import type { Settings } from '../settings/index.js';
import { SettingsError } from '../settings/settings-error.js';
import type { QueueOrder } from './request-queue.js';

/** 'priority' is ScrapyPriorityQueue; 'downloader-aware' is DownloaderAwarePriorityQueue. */
export type PriorityQueueKind = 'priority' | 'downloader-aware';

const ORDERS: Readonly<Record<string, QueueOrder>> = {
  lifo: 'lifo',
  lifomemoryqueue: 'lifo',
  fifo: 'fifo',
  fifomemoryqueue: 'fifo',
};

const PRIORITY_QUEUES: Readonly<Record<string, PriorityQueueKind>> = {
  priority: 'priority',
  scrapypriorityqueue: 'priority',
  'downloader-aware': 'downloader-aware',
  downloaderawarepriorityqueue: 'downloader-aware',
};

function normalise(value: string, prefix: string): string {
  const trimmed = value.trim();
  return (trimmed.startsWith(prefix) ? trimmed.slice(prefix.length) : trimmed).toLowerCase();
}

function origin(settings: Settings, name: string): string {
  const source = settings.getSource(name);
  return source === undefined ? '' : ` (from ${source})`;
}

/** SCHEDULER_MEMORY_QUEUE as a queue order. */
export function queueOrderSetting(settings: Settings): QueueOrder {
  const value = settings.get('SCHEDULER_MEMORY_QUEUE');
  const order = ORDERS[normalise(value, 'scrapy.squeues.')];
  if (order !== undefined) return order;
  throw new SettingsError(
    `Setting SCHEDULER_MEMORY_QUEUE is ${JSON.stringify(value)}${origin(settings, 'SCHEDULER_MEMORY_QUEUE')}, which seine does not know: ` +
      "use 'LifoMemoryQueue' (depth-first, the default) or 'FifoMemoryQueue' (breadth-first with DEPTH_PRIORITY=1); " +
      "'lifo' and 'fifo' work too (the queue used with JOBDIR is SCHEDULER_DISK_QUEUE)",
  );
}

const DISK_ORDERS: Readonly<Record<string, QueueOrder>> = {
  lifo: 'lifo',
  lifodiskqueue: 'lifo',
  picklelifodiskqueue: 'lifo',
  marshallifodiskqueue: 'lifo',
  fifo: 'fifo',
  fifodiskqueue: 'fifo',
  picklefifodiskqueue: 'fifo',
  marshalfifodiskqueue: 'fifo',
};

/**
 * SCHEDULER_DISK_QUEUE (used with JOBDIR) as a queue order. Scrapy's
 * Pickle/Marshal variants name only how requests are encoded; seine writes
 * JSON whatever the name, so they all mean their order.
 */
export function diskQueueOrderSetting(settings: Settings): QueueOrder {
  const value = settings.get('SCHEDULER_DISK_QUEUE');
  const order = DISK_ORDERS[normalise(value, 'scrapy.squeues.')];
  if (order !== undefined) return order;
  throw new SettingsError(
    `Setting SCHEDULER_DISK_QUEUE is ${JSON.stringify(value)}${origin(settings, 'SCHEDULER_DISK_QUEUE')}, which seine does not know: ` +
      "use 'LifoDiskQueue' (depth-first, the default) or 'FifoDiskQueue' (breadth-first with DEPTH_PRIORITY=1); " +
      "Scrapy's 'PickleLifoDiskQueue', 'PickleFifoDiskQueue' and the Marshal ones work too",
  );
}

/** SCHEDULER_PRIORITY_QUEUE as a priority queue kind. */
export function priorityQueueSetting(settings: Settings): PriorityQueueKind {
  const value = settings.get('SCHEDULER_PRIORITY_QUEUE');
  const kind = PRIORITY_QUEUES[normalise(value, 'scrapy.pqueues.')];
  if (kind === undefined) {
    throw new SettingsError(
      `Setting SCHEDULER_PRIORITY_QUEUE is ${JSON.stringify(value)}${origin(settings, 'SCHEDULER_PRIORITY_QUEUE')}, which seine does not know: ` +
        "use 'ScrapyPriorityQueue' (the default) or 'DownloaderAwarePriorityQueue' (spreads a multi-domain crawl over domains)",
    );
  }
  if (kind === 'downloader-aware' && settings.getInt('CONCURRENT_REQUESTS_PER_IP') !== 0) {
    throw new SettingsError(
      `Setting SCHEDULER_PRIORITY_QUEUE is ${JSON.stringify(value)}, which does not support CONCURRENT_REQUESTS_PER_IP; ` +
        `CONCURRENT_REQUESTS_PER_IP is ${settings.getInt('CONCURRENT_REQUESTS_PER_IP')}${origin(settings, 'CONCURRENT_REQUESTS_PER_IP')}: ` +
        "set CONCURRENT_REQUESTS_PER_IP to 0 or use 'ScrapyPriorityQueue'",
    );
  }
  return kind;
}
