import { timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { Extension } from '../contracts/components.js';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler } from '../contracts/crawler.js';
import type { CrawlEvent } from '../contracts/events.js';
import { settingAtLeast } from '../settings/setting-at-least.js';

export interface CloseSpiderExtensionOptions {
  /** CLOSESPIDER_TIMEOUT: seconds after the spider opens; 0 or absent: no limit. */
  readonly timeoutSeconds?: number;
  /** CLOSESPIDER_ITEMCOUNT: items scraped. */
  readonly itemCount?: number;
  /** CLOSESPIDER_PAGECOUNT: responses received. */
  readonly pageCount?: number;
  /** CLOSESPIDER_ERRORCOUNT: errors raised by callbacks (`spider_error`). */
  readonly errorCount?: number;
  /** Closes the crawl (`crawler.close`); called at most once. */
  readonly close: (reason: string) => void;
  /** The RxJS scheduler of the timeout (a TestScheduler in tests); default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Scrapy's CloseSpider extension (`CloseSpider` in EXTENSIONS; the class is
 * named apart from the CloseSpider exception): closes the crawl with reason
 * `closespider_timeout`, `closespider_itemcount`, `closespider_pagecount` or
 * `closespider_errorcount` as soon as a limit is reached (a count when it
 * reaches the limit; the timeout counts from `spider_opened`). The first
 * limit reached wins; the others are not reported.
 */
export class CloseSpiderExtension implements Extension {
  readonly #options: CloseSpiderExtensionOptions;
  #items = 0;
  #pages = 0;
  #errors = 0;
  #closed = false;
  #timer: Subscription | undefined;
  #events: Subscription | undefined;

  constructor(options: CloseSpiderExtensionOptions) {
    this.#options = options;
  }

  /** Reads CLOSESPIDER_*; NotConfigured when all are 0. Counts the crawler's events. */
  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'events$' | 'close'>, options: Pick<CloseSpiderExtensionOptions, 'scheduler'> = {}): CloseSpiderExtension {
    const { settings } = crawler;
    const off = 'use 0 to turn this limit off';
    const read = (name: string, value: number): number => settingAtLeast(settings, name, value, 0, off);
    const timeoutSeconds = read('CLOSESPIDER_TIMEOUT', settings.getFloat('CLOSESPIDER_TIMEOUT'));
    const itemCount = read('CLOSESPIDER_ITEMCOUNT', settings.getInt('CLOSESPIDER_ITEMCOUNT'));
    const pageCount = read('CLOSESPIDER_PAGECOUNT', settings.getInt('CLOSESPIDER_PAGECOUNT'));
    const errorCount = read('CLOSESPIDER_ERRORCOUNT', settings.getInt('CLOSESPIDER_ERRORCOUNT'));
    if (!timeoutSeconds && !itemCount && !pageCount && !errorCount) throw new NotConfigured('every CLOSESPIDER_* setting is 0');
    const extension = new CloseSpiderExtension({ timeoutSeconds, itemCount, pageCount, errorCount, close: (reason) => crawler.close(reason), ...options });
    extension.#events = crawler.events$.subscribe((event) => extension.handle(event));
    return extension;
  }

  handle(event: CrawlEvent): void {
    const { itemCount, pageCount, errorCount } = this.#options;
    switch (event.type) {
      case 'spider_opened':
        this.openSpider();
        break;
      case 'item_scraped':
        if (itemCount && ++this.#items >= itemCount) this.#close('closespider_itemcount');
        break;
      case 'response_received':
        if (pageCount && ++this.#pages >= pageCount) this.#close('closespider_pagecount');
        break;
      case 'spider_error':
        if (errorCount && ++this.#errors >= errorCount) this.#close('closespider_errorcount');
        break;
      case 'spider_closed':
        this.closeSpider();
        break;
      default:
        break;
    }
  }

  /** Starts the timeout (once, whether called by the engine or on `spider_opened`). */
  openSpider(): void {
    const seconds = this.#options.timeoutSeconds;
    if (!seconds || this.#timer !== undefined || this.#closed) return;
    this.#timer = timer(seconds * 1000, this.#options.scheduler).subscribe(() => this.#close('closespider_timeout'));
  }

  /** Cancels the timeout and stops counting. */
  closeSpider(): void {
    this.#timer?.unsubscribe();
    this.#events?.unsubscribe();
  }

  #close(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#timer?.unsubscribe();
    this.#options.close(reason);
  }
}
