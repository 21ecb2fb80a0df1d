/**
 * The browser side of a crawl's downloads, as the crawl assembles it: the
 * PLAYWRIGHT_* settings are checked when the crawl starts, the browser
 * code (and Playwright) is loaded on the first rendered request only, and
 * the browser is closed when the spider closes — pages a callback was
 * handed and never closed are closed then, with a warning.
 */
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Crawler } from '../contracts/crawler.js';
import { browserSettings, type BrowserSettings } from './browser-settings.js';
import { usesBrowser } from './uses-browser.js';
import type { BrowserPool } from './browser-pool.js';

export interface BrowserDownloader {
  /** True when this request is rendered in the browser. */
  wants(request: Request): boolean;
  fetch(request: Request, options: { signal: AbortSignal; timeoutMs: number | null }): Promise<Response>;
}

export function browserDownloader(crawler: Crawler): BrowserDownloader {
  const settings: BrowserSettings = browserSettings(crawler.settings);
  const logger = crawler.logBus.getLogger('seine.browser');
  let pool: Promise<BrowserPool> | null = null;
  let fetchModule: Promise<typeof import('./browser-fetch.js')> | null = null;

  crawler.signals.connect('spider_closed', async () => {
    if (pool === null) return;
    const open = await (await pool).close();
    if (open > 0) {
      logger.warning(`${open} browser page${open === 1 ? '' : 's'} handed to callbacks (playwright_include_page) ${open === 1 ? 'was' : 'were'} still open and closed now: close them in the callback with await page.close()`);
    }
  });

  return {
    wants: (request) => usesBrowser(request, settings.byDefault),
    async fetch(request, { signal, timeoutMs }) {
      pool ??= import('./browser-pool.js').then(({ BrowserPool: Pool }) => new Pool(settings, logger, crawler.stats));
      fetchModule ??= import('./browser-fetch.js');
      const [{ browserFetch }, browsers] = await Promise.all([fetchModule, pool]);
      return browserFetch(browsers, request, {
        signal,
        timeoutMs: timeoutMs ?? settings.navigationTimeoutMs,
        abortRequest: settings.abortRequest,
        stats: crawler.stats,
      });
    },
  };
}
