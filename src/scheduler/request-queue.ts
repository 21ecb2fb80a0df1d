import type { Request } from '../http/request.js';

/**
 * What the scheduler stores requests in. The in-memory priority queue is the
 * default; a disk or shared (Redis) queue implements the same four members.
 * `pop()` returns undefined when nothing is queued (or, for a shared queue,
 * nothing is available to this process right now).
 */
export interface RequestQueue {
  push(request: Request): void;
  pop(): Request | undefined;
  readonly size: number;
  /**
   * Where requests live, for the stats keys `scheduler/enqueued/<kind>` and
   * `scheduler/dequeued/<kind>`; 'memory' when absent (Scrapy's names are
   * 'memory' and 'disk').
   */
  readonly kind?: string;
  /** Flushes and releases what the queue holds (files, connections) when the crawl closes. */
  close?(): Promise<void>;
}

/**
 * Order within one priority: Scrapy's SCHEDULER_MEMORY_QUEUE. 'lifo' (its
 * default, LifoMemoryQueue) crawls depth-first; 'fifo' (FifoMemoryQueue)
 * with DEPTH_PRIORITY=1 crawls breadth-first.
 */
export type QueueOrder = 'fifo' | 'lifo';
