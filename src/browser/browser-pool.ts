/**
 * One browser for a crawl, its contexts and their pages. The browser is
 * launched on the first rendered request (Playwright is imported then, not
 * before) and again if it dies; pages are handed out within
 * PLAYWRIGHT_MAX_CONTEXTS × PLAYWRIGHT_MAX_PAGES_PER_CONTEXT, in the order
 * they were asked for; a pooled context is replaced after
 * PLAYWRIGHT_RECYCLE_CONTEXT_PAGES pages, so a long crawl does not grow
 * the browser without bound. close() leaves no browser process running.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Logger } from '../log/index.js';
import type { StatsCollector } from '../contracts/crawler.js';
import { BrowserLaunchError } from './browser-errors.js';
import { findChromium } from './find-chromium.js';
import { lazyModule } from '../errors/lazy-package.js';
import type { BrowserSettings } from './browser-settings.js';

/** Playwright, loaded by the first launch: a crawl of plain pages never imports it. */
const playwright = lazyModule('playwright-core', 'rendering pages in a browser', () => import('playwright-core'));

interface ContextSlot {
  readonly key: string;
  /** Named contexts (meta.playwright_context) live for the crawl; pooled ones are recycled. */
  readonly named: boolean;
  readonly proxy: string | null;
  readonly ready: Promise<BrowserContext>;
  context: BrowserContext | null;
  open: number;
  served: number;
  retiring: boolean;
  /** Pages whose request is done, kept for the next one: opening a page starts a renderer, which halves the pages/s (bench:browser). */
  readonly idle: Page[];
}

/** A page lent to one request. */
export interface PageLease {
  readonly page: Page;
  readonly context: BrowserContext;
  /**
   * Frees the page's place: `reuse` keeps the page for a later request (its
   * load went well), `close` closes it (after a failure), `keep` leaves it
   * open for the callback it was handed to.
   */
  release(mode: 'reuse' | 'close' | 'keep'): Promise<void>;
}

export interface PageRequest {
  /** meta.playwright_context, or null for a pooled context. */
  readonly contextName: string | null;
  /** meta.proxy: a context per proxy. */
  readonly proxy: string | null;
}

/** `http://user:pass@host:port` as Playwright's proxy option. */
function proxyOption(proxy: string): { server: string; username?: string; password?: string } {
  const url = new URL(proxy);
  const server = `${url.protocol}//${url.host}`;
  return url.username === '' ? { server } : { server, username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

export class BrowserPool {
  readonly #settings: BrowserSettings;
  readonly #logger: Logger;
  readonly #stats: StatsCollector;
  #browser: Promise<Browser> | null = null;
  readonly #contexts: ContextSlot[] = [];
  readonly #waiting: Array<{ request: PageRequest; grant: (slot: ContextSlot) => void }> = [];
  /** Pages handed to callbacks (playwright_include_page) and not closed yet. */
  readonly #handedOut = new Set<Page>();
  #closing = false;
  #pooledSerial = 0;

  constructor(settings: BrowserSettings, logger: Logger, stats: StatsCollector) {
    this.#settings = settings;
    this.#logger = logger;
    this.#stats = stats;
  }

  /** Pages callbacks were given and have not closed. */
  get handedOutPages(): number {
    return this.#handedOut.size;
  }

  async acquire(request: PageRequest): Promise<PageLease> {
    if (this.#closing) throw new Error('The browser is closing');
    const slot = await new Promise<ContextSlot>((grant) => {
      this.#waiting.push({ request, grant });
      this.#pump();
    });
    let page: Page;
    let context: BrowserContext;
    try {
      context = await slot.ready;
      let reused: Page | undefined;
      while ((reused = slot.idle.pop()) !== undefined && reused.isClosed());
      page = reused ?? (await context.newPage());
      if (reused === undefined) this.#stats.inc('playwright/page_count');
    } catch (error) {
      slot.open--;
      this.#dropContext(slot);
      this.#pump();
      throw error;
    }
    let released = false;
    return {
      page,
      context,
      release: async (mode) => {
        if (released) return;
        released = true;
        if (mode === 'keep') {
          this.#handedOut.add(page);
          page.once('close', () => this.#handedOut.delete(page));
        } else if (mode === 'reuse' && !slot.retiring && !this.#closing && this.#contexts.includes(slot) && !page.isClosed()) {
          await page.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined);
          slot.idle.push(page);
        } else {
          await page.close().catch(() => undefined);
        }
        slot.open--;
        if (slot.retiring && slot.open === 0) this.#dropContext(slot);
        this.#pump();
      },
    };
  }

  /** Closes every page and context and the browser; returns how many handed-out pages were still open. */
  async close(): Promise<number> {
    this.#closing = true;
    const leftOpen = [...this.#handedOut].filter((page) => !page.isClosed()).length;
    const browser = this.#browser;
    this.#browser = null;
    if (browser !== null) {
      const launched = await browser.catch(() => null);
      if (launched !== null) {
        // browser.close() ends the process; a browser that no longer answers is killed after 5 s by Playwright's own timeout.
        await Promise.race([launched.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      }
    }
    this.#contexts.length = 0;
    return leftOpen;
  }

  /** Hands free places to waiting requests, in order, creating contexts while PLAYWRIGHT_MAX_CONTEXTS allows. */
  #pump(): void {
    for (let i = 0; i < this.#waiting.length; ) {
      const waiter = this.#waiting[i]!;
      const slot = this.#slotFor(waiter.request);
      if (slot === null) {
        i++;
        continue;
      }
      this.#waiting.splice(i, 1);
      slot.open++;
      slot.served++;
      if (!slot.named && this.#settings.recyclePages > 0 && slot.served >= this.#settings.recyclePages) slot.retiring = true;
      waiter.grant(slot);
    }
  }

  #slotFor({ contextName, proxy }: PageRequest): ContextSlot | null {
    const max = this.#settings.maxPagesPerContext;
    if (contextName !== null) {
      const named = this.#contexts.find((slot) => slot.named && slot.key === contextName);
      if (named !== undefined) return named.open < max ? named : null;
      if (!this.#roomForContext()) return null;
      return this.#newContext(contextName, true, proxy);
    }
    const candidates = this.#contexts.filter((slot) => !slot.named && !slot.retiring && slot.proxy === proxy && slot.open < max);
    if (candidates.length > 0) return candidates.reduce((best, slot) => (slot.open < best.open ? slot : best));
    if (!this.#roomForContext()) return null;
    return this.#newContext(`pool-${++this.#pooledSerial}`, false, proxy);
  }

  /** A free context place, closing an idle pooled context to make one when needed. */
  #roomForContext(): boolean {
    if (this.#contexts.length < this.#settings.maxContexts) return true;
    const idle = this.#contexts.find((slot) => !slot.named && slot.open === 0);
    if (idle === undefined) return false;
    this.#dropContext(idle);
    return true;
  }

  #newContext(key: string, named: boolean, proxy: string | null): ContextSlot {
    const options: Record<string, unknown> = { ...(this.#settings.contexts[named ? key : 'default'] ?? {}) };
    if (proxy !== null) options['proxy'] = proxyOption(proxy);
    const slot: ContextSlot = {
      key, named, proxy, context: null, open: 0, served: 0, retiring: false, idle: [],
      ready: this.#launched().then(async (browser) => {
        const context = await browser.newContext(options);
        this.#stats.inc('playwright/context_count');
        slot.context = context;
        return context;
      }),
    };
    // A context that failed to open is dropped by acquire(); this keeps the rejection from going unhandled meanwhile.
    slot.ready.catch(() => undefined);
    this.#contexts.push(slot);
    return slot;
  }

  #dropContext(slot: ContextSlot): void {
    const index = this.#contexts.indexOf(slot);
    if (index >= 0) this.#contexts.splice(index, 1);
    void slot.ready.then((context) => context.close()).catch(() => undefined);
  }

  #launched(): Promise<Browser> {
    this.#browser ??= this.#launch();
    return this.#browser;
  }

  async #launch(): Promise<Browser> {
    const launch = { ...this.#settings.launchOptions };
    const executablePath = findChromium(launch['executablePath']);
    const args = Array.isArray(launch['args']) ? launch['args'].map(String) : [];
    // Chromium refuses to start as root with its sandbox on (containers, CI).
    if (process.getuid?.() === 0 && !args.includes('--no-sandbox')) args.push('--no-sandbox');
    const { chromium } = await playwright();
    let browser: Browser;
    try {
      browser = await chromium.launch({
        ...launch,
        executablePath,
        args,
        // seine's own Ctrl-C handling closes the browser with the crawl; Playwright's would exit the process first.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      this.#browser = null;
      let reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.replace(/^browserType\.launch: /, '');
      if (/has been closed|exited/i.test(reason)) reason = `it exited at once (${reason}); is it a Chromium or Chrome executable?`;
      throw new BrowserLaunchError(executablePath, reason, { cause: error });
    }
    this.#stats.inc('playwright/browser_count');
    const current = this.#browser;
    browser.on('disconnected', () => {
      if (this.#closing || this.#browser !== current) return;
      this.#logger.warning('The browser closed unexpectedly; the next rendered page starts a new one');
      this.#browser = null;
      // Its contexts went with it; their pages' navigations fail and are retried.
      for (const slot of [...this.#contexts]) this.#dropContext(slot);
      this.#pump();
    });
    return browser;
  }
}
