/**
 * The browser's download handler: a request with `meta.playwright` (or
 * every request, with PLAYWRIGHT_BY_DEFAULT) is rendered in a pooled
 * Chromium. The browser code (and Playwright) is loaded on the first
 * rendered request only, and the browser is closed with the crawl — pages a
 * callback was handed and never closed are closed then, with a warning.
 */
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Crawler } from '../contracts/crawler.js';
import type { Logger } from '../log/index.js';
import type { StatsCollector } from '../contracts/crawler.js';
import type { DownloadHandler, DownloadHandlerContext } from '../download/handlers/index.js';
import { browserSettings, type BrowserSettings } from './browser-settings.js';
import { usesBrowser } from './uses-browser.js';
import type { BrowserPool } from './browser-pool.js';

/** The browser code, imported by the first rendered request (browser-pool.ts loads Playwright when it launches). */
let browserModules: Promise<[typeof import('./browser-pool.js'), typeof import('./browser-fetch.js')]> | undefined;

export class BrowserDownloadHandler implements DownloadHandler {
  readonly #settings: BrowserSettings;
  readonly #logger: Logger;
  readonly #stats: StatsCollector;
  readonly #signal: AbortSignal;
  readonly #keepNetworkExchange: boolean;
  #pool: BrowserPool | null = null;

  static fromCrawler(crawler: Crawler, context: DownloadHandlerContext): BrowserDownloadHandler {
    return new BrowserDownloadHandler(crawler, context);
  }

  constructor(crawler: Crawler, { signal }: DownloadHandlerContext) {
    this.#settings = browserSettings(crawler.settings);
    this.#logger = crawler.logBus.getLogger('seine.browser');
    this.#stats = crawler.stats;
    this.#signal = signal;
    this.#keepNetworkExchange = crawler.settings.getBool('WARC_ENABLED');
  }

  /** True when `request` is rendered in the browser; reads the PLAYWRIGHT_* settings (and checks them) at once. */
  static wantsFor(crawler: Crawler): (request: Request) => boolean {
    const byDefault = browserSettings(crawler.settings).byDefault;
    return (request) => usesBrowser(request, byDefault);
  }

  async downloadRequest(request: Request): Promise<Response> {
    const [{ BrowserPool: Pool }, { browserFetch }] = await (browserModules ??= Promise.all([import('./browser-pool.js'), import('./browser-fetch.js')]));
    this.#pool ??= new Pool(this.#settings, this.#logger, this.#stats);
    const timeout = request.meta['download_timeout'];
    return browserFetch(this.#pool, request, {
      signal: this.#signal,
      timeoutMs: typeof timeout === 'number' ? timeout * 1000 : this.#settings.navigationTimeoutMs,
      abortRequest: this.#settings.abortRequest,
      stats: this.#stats,
      keepNetworkExchange: this.#keepNetworkExchange,
    });
  }

  async close(): Promise<void> {
    if (this.#pool === null) return;
    const open = await this.#pool.close();
    if (open > 0) {
      this.#logger.warning(`${open} browser page${open === 1 ? '' : 's'} handed to callbacks (playwright_include_page) ${open === 1 ? 'was' : 'were'} still open and closed now: close them in the callback with await page.close()`);
    }
  }
}
