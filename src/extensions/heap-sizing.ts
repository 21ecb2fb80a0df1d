import type { Subscription } from 'rxjs';
import type { Extension } from '../contracts/components.js';
import type { Crawler } from '../contracts/crawler.js';
import { settingAtLeast } from '../settings/setting-at-least.js';
import { keepHeapNear, type HeapTargets } from './heap-targets.js';

const MIB = 1024 * 1024;

/**
 * Keeps a crawl's memory near its live heap. V8 sizes its heap for
 * throughput on a machine with memory to spare: it lets the old generation
 * grow to 2–4× what is alive before a full collection, and doubles the
 * young generation up to 32 MB. A crawl's live heap is small (~25 MB on
 * the crawl benchmark) but it allocates fast (~75 candidate requests per
 * page), so the process used to peak at ~210 MB, ~110 MB of it garbage
 * (docs/performance.md, "Peak memory").
 *
 * While the crawl runs, HEAP_GROWTH_PERCENT and HEAP_YOUNG_GENERATION_MB
 * are kept (heap-targets.ts: process-wide V8 flags); when it ends, what was
 * in force before comes back. A setting of 0 leaves that part to V8; a
 * program running other work next to a crawl can set both to 0.
 */
export class HeapSizing implements Extension {
  readonly #targets: HeapTargets;
  #previous: HeapTargets | undefined;
  #running = false;
  #events: Subscription | undefined;

  constructor(targets: HeapTargets) {
    this.#targets = targets;
  }

  /** Reads HEAP_GROWTH_PERCENT and HEAP_YOUNG_GENERATION_MB (whole numbers ≥ 0). */
  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'events$'>): HeapSizing {
    const { settings } = crawler;
    const hint = 'use 0 to leave it to V8';
    const growthPercent = settingAtLeast(settings, 'HEAP_GROWTH_PERCENT', settings.getInt('HEAP_GROWTH_PERCENT'), 0, hint);
    const youngMb = settingAtLeast(settings, 'HEAP_YOUNG_GENERATION_MB', settings.getInt('HEAP_YOUNG_GENERATION_MB'), 0, hint);
    const extension = new HeapSizing({ growthPercent, youngGenerationBytes: youngMb * MIB });
    extension.#events = crawler.events$.subscribe((event) => {
      if (event.type === 'engine_started') extension.start();
      else if (event.type === 'spider_closed' || event.type === 'engine_stopped') extension.stop();
    });
    return extension;
  }

  /** Puts the crawl's targets in force; a second call does nothing. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#previous = keepHeapNear(this.#targets);
  }

  /** Puts back what was in force before the crawl; a second call does nothing. */
  stop(): void {
    if (this.#running) {
      this.#running = false;
      keepHeapNear(this.#previous);
    }
    this.#events?.unsubscribe();
  }

  openSpider(): void {
    this.start();
  }

  closeSpider(): void {
    this.stop();
  }
}
