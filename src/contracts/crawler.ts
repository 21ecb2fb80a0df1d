import type { Observable } from 'rxjs';
import type { Settings } from '../settings/index.js';
import type { LogBus } from '../log/index.js';
import type { Spider } from './spider.js';
import type { DownloadSlots } from '../throttle/download-slots.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { CrawlEvent } from './events.js';
import type { Signals } from './signals.js';

/** Scrapy's stats collector: counters and values keyed like `downloader/request_count`. */
export interface StatsCollector {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  inc(key: string, by?: number): void;
  max(key: string, value: number): void;
  min(key: string, value: number): void;
  getAll(): Record<string, unknown>;
}

/**
 * What components see of a running crawl (`fromCrawler(crawler)`): frozen
 * settings, stats, the crawl's log bus, its events, the spider, the
 * download slots, and the engine's gate (paused by `inspectResponse`).
 */
export interface Crawler {
  readonly settings: Settings;
  readonly stats: StatsCollector;
  readonly logBus: LogBus;
  readonly events$: Observable<CrawlEvent>;
  readonly spider: Spider;
  /**
   * The crawl's download slots while it runs (Scrapy's
   * `crawler.engine.downloader.slots`): created just before `spider_opened`,
   * undefined before that and when a crawl's `parts.createSlots` gives slots
   * of its own. AutoThrottle sets their delays here.
   */
  readonly downloadSlots?: DownloadSlots | undefined;
  /**
   * Handlers that answer back, Scrapy's `crawler.signals`:
   * `crawler.signals.connect('spider_idle', () => { …; throw new DontCloseSpider(); })`.
   */
  readonly signals: Signals;
  /**
   * Scrapy's `crawler.engine`: `crawl(request)` adds a request to the
   * running crawl; `download(request)` downloads one outside the scheduler
   * and the spider's callbacks — through the download slots, the downloader
   * middlewares (robots.txt, retries, the HTTP cache) and the download
   * handlers — and resolves with its response (what FilesPipeline uses).
   */
  readonly engine: { crawl(request: Request): void; download(request: Request): Promise<Response> };
  /** Emits an event into the crawl (stats and logs follow from it). */
  emit(event: CrawlEvent): void;
  /** Closes the gate: nothing new is scheduled, responses in flight wait before their callbacks (inspectResponse). */
  pause(): void;
  /** Opens the gate again. */
  resume(): void;
  /** Closes the crawl early with `reason` (CLOSESPIDER_*, signals, CloseSpider). */
  close(reason: string): void;
}
