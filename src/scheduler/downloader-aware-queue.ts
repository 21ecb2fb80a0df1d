import type { Request } from '../http/request.js';
import { MemoryPriorityQueue } from './memory-priority-queue.js';
import type { QueueOrder, RequestQueue } from './request-queue.js';

export interface DownloaderAwarePriorityQueueOptions {
  readonly order?: QueueOrder;
  /** The download slot a request will use (DownloadSlots.slotKey). */
  readonly slotKey: (request: Request) => string;
  /** How many requests of that slot are downloading now (DownloadSlots.activeIn). */
  readonly activeIn: (slot: string) => number;
}

/**
 * Scrapy's DownloaderAwarePriorityQueue: one priority queue per download
 * slot, and `pop()` takes from the slot with the fewest active downloads
 * (ties: the smallest slot name, as Scrapy's `min()` over tuples), so a
 * multi-domain crawl spreads over domains instead of piling onto one.
 * `pop()` scans the slots that hold requests, as Scrapy does; that is a few
 * dozen domains in practice.
 */
export class DownloaderAwarePriorityQueue implements RequestQueue {
  readonly kind = 'memory';
  readonly #queues = new Map<string, MemoryPriorityQueue>();
  readonly #options: DownloaderAwarePriorityQueueOptions;
  #size = 0;

  constructor(options: DownloaderAwarePriorityQueueOptions) {
    this.#options = options;
  }

  push(request: Request): void {
    const slot = this.#options.slotKey(request);
    let queue = this.#queues.get(slot);
    if (queue === undefined) {
      queue = new MemoryPriorityQueue({ order: this.#options.order ?? 'lifo' });
      this.#queues.set(slot, queue);
    }
    queue.push(request);
    this.#size++;
  }

  pop(): Request | undefined {
    let best: string | undefined;
    let bestActive = Infinity;
    for (const slot of this.#queues.keys()) {
      const active = this.#options.activeIn(slot);
      if (active < bestActive || (active === bestActive && best !== undefined && slot < best)) {
        best = slot;
        bestActive = active;
      }
    }
    if (best === undefined) return undefined;
    const queue = this.#queues.get(best)!;
    const request = queue.pop();
    this.#size--;
    if (queue.size === 0) this.#queues.delete(best);
    return request;
  }

  get size(): number {
    return this.#size;
  }
}
