import type { Request, Item } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider } from './spider.js';

/**
 * Why a request was not crawled (`request_dropped`): a duplicate in the
 * scheduler, an offsite link, robots.txt, yielded while the crawl closes
 * (without JOBDIR to keep it), ignored by a downloader middleware
 * (IgnoreRequest), or a component threw while handling it.
 */
export type DropReason = 'duplicate' | 'offsite' | 'robots' | 'closing' | 'ignored' | 'error';

/**
 * Everything that happens in a crawl, as one discriminated union named after
 * Scrapy's signals. Stats are a reducer over these events and log lines a
 * function of them; users observe them through a crawl's streams.
 */
export type CrawlEvent =
  | { type: 'engine_started' }
  | { type: 'spider_opened'; spider: Spider }
  | { type: 'request_scheduled'; request: Request }
  | { type: 'request_dropped'; request: Request; reason: DropReason }
  | { type: 'request_reached_downloader'; request: Request }
  | { type: 'request_left_downloader'; request: Request }
  | { type: 'response_downloaded'; request: Request; response: Response }
  | { type: 'response_received'; request: Request; response: Response }
  | { type: 'download_error'; request: Request; error: Error }
  | { type: 'item_scraped'; item: Item; response: Response | null }
  | { type: 'item_dropped'; item: Item; response: Response | null; error: Error }
  | { type: 'item_error'; item: Item; response: Response | null; error: Error }
  | { type: 'spider_error'; error: Error; response: Response | null }
  | { type: 'spider_idle' }
  /** A stage or component threw outside a callback (`stage`: start, schedule, throttle, download, signal …); the crawl went on. */
  | { type: 'engine_error'; stage: string; request: Request | null; error: Error }
  | { type: 'spider_closed'; reason: string }
  | { type: 'engine_stopped' };

export type CrawlEventType = CrawlEvent['type'];
