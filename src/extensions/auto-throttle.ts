import type { Subscription } from 'rxjs';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler } from '../contracts/crawler.js';
import { DOWNLOAD_LATENCY } from '../http/request-meta.js';
import type { CrawlEvent } from '../contracts/events.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { getLogger, type Logger } from '../log/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { DOWNLOAD_SLOT } from '../throttle/download-slots.js';
import { settingAtLeast } from '../settings/setting-at-least.js';
import { autoThrottleDebugLine, backedOffDelay, nextAutoThrottleDelay, type AutoThrottleLimits } from './auto-throttle-delay.js';

/** Scrapy's `scrapy.extensions.throttle` logger. */
export const AUTOTHROTTLE_LOGGER = 'seine.extensions.throttle';
/** A request whose meta has this key set to `true` leaves its slot's delay alone (Scrapy 2.12's meta key). */
export const AUTOTHROTTLE_DONT_ADJUST_DELAY = 'autothrottle_dont_adjust_delay';

/** What AutoThrottle needs of the crawl's download slots (src/throttle's DownloadSlots has it). */
export interface AutoThrottleSlots {
  /** The delay in milliseconds a slot is created with. */
  newSlotDelayMs: number;
  slot(key: string): { delayMs: number; readonly active: ReadonlySet<unknown>; readonly minDelayMs?: number } | undefined;
}

/** Statuses by which a site says it gets too many requests: the slot's delay backs off (backedOffDelay). */
const BACK_OFF_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export interface AutoThrottleOptions extends AutoThrottleLimits {
  /** max(AUTOTHROTTLE_START_DELAY, the min delay), in seconds: every new slot's delay. */
  readonly startDelay: number;
  /** AUTOTHROTTLE_DEBUG: log a line per adjusted response. */
  readonly debug?: boolean;
  /** Default `seine.extensions.throttle` on the default bus. */
  readonly logger?: Logger;
  /** The crawl's slots, asked when needed: they are created after the extensions. */
  readonly slots: () => AutoThrottleSlots | undefined;
}

/**
 * Scrapy's AutoThrottle extension: when the spider opens, new download slots
 * start at the start delay instead of DOWNLOAD_DELAY; after each response
 * from the network, its slot's delay moves towards `download_latency /
 * AUTOTHROTTLE_TARGET_CONCURRENCY` (nextAutoThrottleDelay). The throttle
 * stage reads the slot's delay for the next start, randomized by
 * RANDOMIZE_DOWNLOAD_DELAY as any delay.
 */
export class AutoThrottle {
  readonly limits: AutoThrottleLimits;
  readonly startDelay: number;
  readonly #debug: boolean;
  readonly #logger: Logger;
  readonly #slots: () => AutoThrottleSlots | undefined;
  #events: Subscription | undefined;

  constructor(options: AutoThrottleOptions) {
    const { targetConcurrency, minDelay, maxDelay } = options;
    if (!(targetConcurrency > 0)) throw new RangeError(`AutoThrottle targetConcurrency must be a number > 0, got ${targetConcurrency}`);
    this.limits = { targetConcurrency, minDelay, maxDelay };
    this.startDelay = options.startDelay;
    this.#debug = options.debug ?? false;
    this.#logger = options.logger ?? getLogger(AUTOTHROTTLE_LOGGER);
    this.#slots = options.slots;
  }

  /**
   * Reads AUTOTHROTTLE_* and DOWNLOAD_DELAY (the spider's `downloadDelay`
   * wins, as for the slots); NotConfigured unless AUTOTHROTTLE_ENABLED.
   * Listens to the crawler's `spider_opened` and `response_downloaded`.
   */
  static fromCrawler(crawler: Pick<Crawler, 'settings' | 'spider' | 'events$' | 'logBus' | 'downloadSlots'>): AutoThrottle {
    const { settings } = crawler;
    if (!settings.getBool('AUTOTHROTTLE_ENABLED')) throw new NotConfigured('AUTOTHROTTLE_ENABLED is off');
    const targetConcurrency = settings.getFloat('AUTOTHROTTLE_TARGET_CONCURRENCY');
    if (!(targetConcurrency > 0)) {
      // Scrapy 2.8 divides by it anyway (ZeroDivisionError at the first response); refusing to start says why.
      const source = settings.getSource('AUTOTHROTTLE_TARGET_CONCURRENCY');
      throw new SettingsError(
        `Setting AUTOTHROTTLE_TARGET_CONCURRENCY must be greater than 0, got ${targetConcurrency}${source === undefined ? '' : ` (from ${source})`}: ` +
          'it is the number of requests AutoThrottle aims to have in flight per site',
      );
    }
    const maxDelay = settingAtLeast(settings, 'AUTOTHROTTLE_MAX_DELAY', settings.getFloat('AUTOTHROTTLE_MAX_DELAY'), 0,
      'it is the longest delay in seconds AutoThrottle may set');
    const start = settingAtLeast(settings, 'AUTOTHROTTLE_START_DELAY', settings.getFloat('AUTOTHROTTLE_START_DELAY'), 0,
      'it is the delay in seconds AutoThrottle starts each site with');
    // DOWNLOAD_DELAY and a spider's downloadDelay are checked where the slots read them (DownloadSlots.fromCrawler).
    const spiderDelay = (crawler.spider as { downloadDelay?: unknown }).downloadDelay;
    const minDelay = typeof spiderDelay === 'number' ? spiderDelay : settings.getFloat('DOWNLOAD_DELAY');
    const extension = new AutoThrottle({
      targetConcurrency,
      minDelay,
      maxDelay,
      // Not capped by maxDelay, as in Scrapy: the first response brings the delay under it.
      startDelay: Math.max(minDelay, start),
      debug: settings.getBool('AUTOTHROTTLE_DEBUG'),
      logger: crawler.logBus.getLogger(AUTOTHROTTLE_LOGGER),
      slots: () => crawler.downloadSlots,
    });
    extension.#events = crawler.events$.subscribe((event) => extension.handle(event));
    return extension;
  }

  handle(event: CrawlEvent): void {
    switch (event.type) {
      case 'spider_opened':
        this.spiderOpened();
        break;
      case 'response_downloaded':
        this.responseDownloaded(event.request, event.response);
        break;
      case 'spider_closed':
        this.#events?.unsubscribe();
        break;
      default:
        break;
    }
  }

  /** New slots start at the start delay (Scrapy sets the spider's download_delay to it). */
  spiderOpened(): void {
    const slots = this.#slots();
    if (slots !== undefined) slots.newSlotDelayMs = this.startDelay * 1000;
  }

  /**
   * Adjusts the delay of the response's slot (`meta.download_slot`) from
   * `meta.download_latency`, or doubles it after a 429 or 503
   * (backedOffDelay). A slot's DOWNLOAD_SLOTS `delay` is its floor: never
   * lowered below it, whatever AUTOTHROTTLE_MAX_DELAY says (its `rate` is
   * kept apart and never touched). Skipped: a response with no latency (it did
   * not come from the network: a middleware made it), no slot, or
   * `meta.autothrottle_dont_adjust_delay === true`.
   */
  responseDownloaded(request: Request, response: Response): void {
    const latency = request.meta[DOWNLOAD_LATENCY];
    const key = request.meta[DOWNLOAD_SLOT];
    if (typeof latency !== 'number' || key === undefined || key === null) return;
    if (request.meta[AUTOTHROTTLE_DONT_ADJUST_DELAY] === true) return;
    const slot = this.#slots()?.slot(String(key));
    if (slot === undefined) return;
    const previousDelay = slot.delayMs / 1000;
    const floor = (slot.minDelayMs ?? 0) / 1000;
    const adjusted = BACK_OFF_STATUSES.has(response.status)
      ? backedOffDelay(previousDelay, this.startDelay, this.limits)
      : nextAutoThrottleDelay(previousDelay, latency, response.status, this.limits);
    const delay = Math.max(floor, adjusted);
    if (delay !== previousDelay) slot.delayMs = delay * 1000;
    if (this.#debug) {
      this.#logger.info(
        autoThrottleDebugLine({ slot: String(key), concurrency: slot.active.size, delay, previousDelay, latency, size: response.body.length }),
      );
    }
  }
}
