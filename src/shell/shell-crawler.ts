/**
 * The engine behind `seine shell`: one crawler, opened once and kept open
 * (its start is a queue the console feeds, so it is never idle), through
 * which every `fetch` goes exactly like a request of a crawl — scheduler,
 * robots.txt, downloader middlewares (redirects, cookies, retries), spider
 * middlewares — to a callback that hands the response back. As Scrapy's
 * shell, which calls engine.crawl() on a spider opened with
 * close_if_idle=False.
 */
import { Subscription } from 'rxjs';
import { CrawlerImpl } from '../crawler/crawler-impl.js';
import { CrawlFailedError } from '../crawler/crawl-errors.js';
import { isSeineError } from '../errors/seine-error.js';
import type { SpiderOutput } from '../contracts/components.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { LogBus } from '../log/log-bus.js';
import type { SpiderClass } from '../contracts/spider.js';
import { ShellFetchError } from './shell-errors.js';

export interface ShellCrawlerOptions {
  readonly spiderClass: SpiderClass;
  /** Settings at the command line's priority (-s, --loglevel, …). */
  readonly settings?: Record<string, unknown>;
  /** The project's settings (and the shell command's defaults under them). */
  readonly projectSettings?: Record<string, unknown>;
  /** Where the crawl's log lines go while the shell is open (the CLI's bus). */
  readonly logBus: LogBus;
}

/** An async iterable the engine takes as the spider's start; it ends when closed. */
class FetchQueue implements AsyncIterable<SpiderOutput> {
  readonly #items: Request[] = [];
  #wake: (() => void) | null = null;
  #closed = false;

  push(request: Request): void {
    this.#items.push(request);
    this.#wake?.();
  }

  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SpiderOutput> {
    for (;;) {
      const next = this.#items.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = null;
    }
  }
}

export class ShellCrawler {
  readonly crawler: CrawlerImpl;
  readonly #queue = new FetchQueue();
  readonly #forward: Subscription;
  #run: Promise<string> | null = null;

  constructor(options: ShellCrawlerOptions) {
    // The crawl has a bus of its own, forwarded to the CLI's while the shell is open; on
    // leaving, the forwarding stops, so the shell ends without a stats dump (as Scrapy's).
    const bus = new LogBus();
    this.#forward = bus.events$.subscribe((event) => options.logBus.emit(event));
    this.crawler = new CrawlerImpl(
      options.spiderClass,
      {
        settings: options.settings,
        projectSettings: options.projectSettings,
        parts: { startOf: () => this.#queue },
      },
      bus,
    );
  }

  /** Opens the spider and the engine; resolves once it can download. */
  async open(): Promise<void> {
    if (this.#run !== null) return;
    // run() announces spider_opened before its first await: listen before starting it.
    const opened = new Promise<void>((resolve) => {
      const sub = this.crawler.events$.subscribe((event) => {
        if (event.type === 'spider_opened') {
          queueMicrotask(() => sub.unsubscribe());
          resolve();
        }
      });
    });
    this.#run = this.crawler.run();
    this.#run.catch(() => {}); // a failure surfaces through fetch; closing awaits it
    await Promise.race([opened, this.#run.then(() => undefined)]);
  }

  /**
   * Downloads `request` through the engine and resolves with its final
   * response (after redirects, whatever its status). A network failure, a
   * request dropped on the way (robots.txt, a middleware) rejects with a
   * ShellFetchError whose message says why.
   */
  async fetch(request: Request): Promise<Response> {
    await this.open();
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const done = (): void => {
        settled = true;
        watch.unsubscribe();
      };
      const callback = (response: Response): void => {
        if (settled) return;
        done();
        resolve(response);
      };
      const errback = (error: Error): void => {
        if (settled) return;
        done();
        reject(new ShellFetchError(`${request.toString()} failed: ${error.message}`, { cause: error }));
      };
      // Redirects and retries are copies that keep the callback: a drop of any of them ends this fetch.
      const watch = this.crawler.events$.subscribe((event) => {
        if (event.type === 'request_dropped' && event.request.callback === callback) {
          errback(new Error(`the request was dropped (${event.reason})`));
        }
      });
      this.#queue.push(request.replace({ callback, errback }));
      // The crawl can end before the answer comes: it failed (a package seine needs is missing), or it was closed.
      this.#run?.then(
        (reason) => errback(new Error(`the crawl closed (${reason})`)),
        (error: unknown) => errback(crawlFailure(error)),
      );
    });
  }

  /** Stops forwarding the log and lets the engine finish. */
  async close(): Promise<void> {
    this.#forward.unsubscribe();
    this.#queue.close();
    if (this.#run !== null) await this.#run.catch(() => undefined);
  }
}

/** What a failed crawl says to the shell: the reason itself when seine named it (the CrawlFailedError's cause). */
function crawlFailure(error: unknown): Error {
  if (error instanceof CrawlFailedError && isSeineError(error.cause)) return error.cause;
  return error instanceof Error ? error : new Error(String(error));
}
