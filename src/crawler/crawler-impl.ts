import { unknownSettingWarnings } from '../settings/unknown-settings.js';
import { scrapySpellingWarnings } from '../contracts/scrapy-spellings.js';
import { Subject, config as rxjsConfig, lastValueFrom, tap, type Observable } from 'rxjs';
import { Settings } from '../settings/index.js';
import { LogBus, type LogLevel } from '../log/index.js';
import { countLogEvents } from '../stats/index.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider, SpiderClass } from '../contracts/spider.js';
import type { DownloaderMiddleware, Extension, ItemPipeline, SpiderMiddleware } from '../contracts/components.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { CrawlEvent } from '../contracts/events.js';
import { coordinatesWorkers, journaledScheduler, sharedQueue, tracksFeeds } from '../contracts/scheduler.js';
import { EngineState } from '../engine/engine-state.js';
import { engineFlow, type IdleVerdict } from '../engine/engine.js';
import { logLevelOf, logLineFor } from './log-formatter.js';
import { downloadThrough, measuredFetch } from '../engine/downloader-chain.js';
import { slottedFetch } from '../engine/slotted-fetch.js';
import { DownloadSlots } from '../throttle/download-slots.js';
import { buildComponents, componentMap, orderedComponents, type ComponentOrderMap } from './component-list.js';
import { FeedExporter, resolveFeeds, type FeedSpec } from '../feeds/index.js';
import { CRAWL_DEFAULTS, type CrawlDefaults } from './crawl-defaults.js';
import { CrawlFailedError } from './crawl-errors.js';
import { isDependencyMissing } from '../errors/dependency-missing-error.js';
import { isCloseSpider, isDontCloseSpider } from '../contracts/control-flow.js';
import { Signals } from '../contracts/signals.js';


export interface CrawlerOptions {
  /** Spider arguments (`-a name=value`): strings, assigned after construction. */
  args?: Record<string, string>;
  /** Settings at the command line's priority (above the spider's customSettings). */
  settings?: Record<string, unknown>;
  /** Settings at the project's priority (a project's settings.ts). */
  projectSettings?: Record<string, unknown>;
  /** The spider's customSettings as the project resolved them (class names in component lists); default: the class's own. */
  customSettings?: Record<string, unknown>;
  /** The network function and the other parts a test may replace. */
  parts?: Partial<CrawlDefaults>;
  /** Feeds to write besides the FEEDS setting (`-o` / `-O`); a FEEDS entry with the same path wins. */
  feeds?: FeedSpec[];
  /** The file the spider class came from (relative to the project, or as given to runspider), named in warnings about it. */
  spiderFile?: string;
}

/**
 * One run of one spider: builds settings (default < project < spider <
 * cmdline), the spider, the components, and the engine state; opens,
 * runs the flow, and closes with a reason. Stats and log lines follow from
 * the events it emits.
 */
export class CrawlerImpl implements Crawler {
  readonly settings: Settings;
  readonly logBus: LogBus;
  readonly spider: Spider;
  readonly stats: StatsCollector;
  readonly #events = new Subject<CrawlEvent>();
  readonly events$: Observable<CrawlEvent> = this.#events.asObservable();
  readonly #parts: CrawlDefaults;
  #state: EngineState | null = null;
  /** Aborts every transfer of this crawl (unsubscribing, a forced shutdown). */
  readonly abortController = new AbortController();
  #extensions: Extension[] = [];
  /** Set once `Spider closed` is logged: nothing can be added to the crawl any more. */
  #finished = false;
  /** Handlers that answer back (spider_idle's DontCloseSpider); `events$` is the read-only view. */
  readonly signals = new Signals();
  #download: ((request: Request) => Promise<Response>) | null = null;
  /** Downloads through the download slots too (engine.download): set once the engine state exists. */
  #slottedDownload: ((request: Request) => Promise<Response>) | null = null;

  constructor(
    readonly spiderClass: SpiderClass,
    readonly options: CrawlerOptions = {},
    logBus?: LogBus,
  ) {
    this.#parts = { ...CRAWL_DEFAULTS, ...options.parts };
    this.logBus = logBus ?? new LogBus();
    const settings = new Settings(options.projectSettings ?? {}, 'project');
    const customSettings = options.customSettings ?? spiderClass.customSettings;
    if (customSettings !== undefined) settings.setdict(customSettings, 'spider');
    if (options.settings !== undefined) settings.setdict(options.settings, 'cmdline');
    settings.freeze();
    this.settings = settings;
    this.stats = this.#parts.createStats(this);
    const logLevel = settings.get('LOG_LEVEL') as LogLevel;
    countLogEvents(this.logBus.eventsAt(logLevel), this.stats, logLevel);
    this.spider = this.#parts.createSpider(spiderClass, options.args ?? {});
    this.spider.crawler = this;
    this.#events.subscribe((event) => {
      // Below every log subscriber's level (LOG_LEVEL=INFO and a DEBUG line): not formatted at all.
      const level = logLevelOf(event);
      if (level === null || !this.logBus.wants(level)) return;
      const line = logLineFor(event);
      if (line !== null) this.logBus.getLogger(line.logger).log(line.level, line.message);
    });
  }

  emit(event: CrawlEvent): void {
    if (this.signals.hasHandlers(event.type)) void this.#dispatch(event);
    else this.#events.next(event);
  }

  /** `<Crawler spider='quotes'>` where the shell lists its objects. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `<Crawler spider='${this.spider.name}'>`;
  }

  /** What the telnet console shows: the engine's state and Scrapy's `est()` rows in seine's terms. */
  get engineAccess(): { engine: object; engineStatus(): ReadonlyArray<readonly [string, string | number | boolean]> } {
    const state = (): EngineState | null => this.#state;
    const started = Date.now();
    return {
      get engine() {
        return state() ?? {};
      },
      engineStatus: () => {
        const s = state();
        if (s === null) return [['engine.running', false]];
        return [
          ['time()-engine.startTime', (Date.now() - started) / 1000],
          ['engine.paused', s.paused],
          ['engine.closeReason', s.closeReason ?? 'None'],
          ['len(engine.downloading)', s.downloading.size],
          ['engine.tickets.active', s.tickets.active],
          ['engine.tickets.open', s.tickets.open],
          ['engine.scheduler.hasPending()', s.scheduler.hasPending()],
          ['engine.spider.name', this.spider.name],
          ['engine.isIdle()', s.isIdle()],
        ];
      },
    };
  }

  /** The slots of the running crawl when they are seine's DownloadSlots (see Crawler.downloadSlots). */
  get downloadSlots(): DownloadSlots | undefined {
    const slots = this.#state?.slots;
    return slots instanceof DownloadSlots ? slots : undefined;
  }

  /**
   * Downloads a request outside the scheduler, through the downloader
   * middlewares (Scrapy's engine.download): robots.txt uses it. Its
   * response is logged and counted like any other; a request a middleware
   * returns instead (a redirect, a retry) is downloaded in its place.
   */
  download(request: Request): Promise<Response> {
    if (this.#download === null) return Promise.reject(new Error('The crawl has not started: nothing can be downloaded yet'));
    return this.#download(request);
  }

  close(reason: string): void {
    this.#state?.beginClose(reason);
  }

  /**
   * Scrapy's `crawler.engine`: `crawl(request)` adds a request to the running
   * crawl (from a spider_idle handler, say); `download(request)` downloads
   * one outside the scheduler and the callbacks, through the download slots
   * (politeness), the downloader middlewares and the download handlers, and
   * resolves with its response (the media pipelines use it).
   */
  readonly engine = {
    crawl: (request: Request): void => {
      if (this.#state === null || this.#finished) throw new Error(`Cannot crawl ${request.toString()}: the crawl is not running`);
      this.#state.schedule(request);
    },
    download: (request: Request): Promise<Response> => {
      if (this.#slottedDownload === null || this.#finished) return Promise.reject(new Error(`Cannot download ${request.toString()}: the crawl is not running`));
      return this.#slottedDownload(request);
    },
  };

  /** Pauses the whole flow (inspectResponse); in-flight downloads finish, their responses wait. */
  pause(): void {
    this.#state?.pause();
  }

  resume(): void {
    this.#state?.resume();
  }

  /** Aborts transfers in flight and closes with `reason` (unsubscribing, a forced shutdown). */
  cancel(reason = 'cancelled'): void {
    this.#state?.beginClose(reason);
    this.#state?.abort.abort();
  }

  /**
   * Runs the crawl to its end; resolves with the finish reason. When the
   * crawl cannot go on (an openSpider throws, the engine fails) it still
   * closes everything that opened, then rejects with a CrawlFailedError.
   */
  async run(): Promise<string> {
    const s = this.settings;
    const registry = this.#parts;
    for (const line of unknownSettingWarnings(s)) this.logBus.getLogger('seine.settings').warning(line);
    for (const line of scrapySpellingWarnings(this.spider, this.options.spiderFile)) this.logBus.getLogger('seine.spiders').warning(line);
    const downloaderMws = buildComponents<DownloaderMiddleware>(
      orderedComponents('DOWNLOADER_MIDDLEWARES', s.get('DOWNLOADER_MIDDLEWARES_BASE') as ComponentOrderMap, componentMap(s, 'DOWNLOADER_MIDDLEWARES'), registry.downloaderMiddlewares),
      this,
    );
    const spiderMws = buildComponents<SpiderMiddleware>(
      orderedComponents('SPIDER_MIDDLEWARES', s.get('SPIDER_MIDDLEWARES_BASE') as ComponentOrderMap, componentMap(s, 'SPIDER_MIDDLEWARES'), registry.spiderMiddlewares),
      this,
    );
    const pipelines = buildComponents<ItemPipeline>(
      orderedComponents('ITEM_PIPELINES', s.get('ITEM_PIPELINES_BASE') as ComponentOrderMap, componentMap(s, 'ITEM_PIPELINES'), registry.pipelines),
      this,
    );
    this.#extensions = buildComponents<Extension>(
      orderedComponents('EXTENSIONS', s.get('EXTENSIONS_BASE') as ComponentOrderMap, componentMap(s, 'EXTENSIONS'), registry.extensions),
      this,
    );
    const fetch = registry.createFetch(this);
    const measured = measuredFetch(fetch, (request, response) => this.emit({ type: 'response_downloaded', request, response }));
    const following = (fetchOne: (request: Request) => Promise<Response>) => async (request: Request): Promise<Response> => {
      let current = request;
      // Scrapy's engine.download downloads what a middleware returns in the request's place; the
      // redirect and retry middlewares bound the chain, the cap only guards against a middleware that never stops.
      for (let hop = 0; hop < MAX_DOWNLOAD_HOPS; hop++) {
        const outcome = await downloadThrough(downloaderMws, current, this.spider, fetchOne);
        if (outcome.kind === 'response') {
          this.emit({ type: 'response_received', request: current, response: outcome.response });
          return outcome.response;
        }
        if (outcome.kind === 'error') throw outcome.error;
        current = outcome.next;
      }
      throw new Error(`${request.toString()} was replaced by the downloader middlewares ${MAX_DOWNLOAD_HOPS} times in a row`);
    };
    // robots.txt is fetched from inside a request's download, which holds its slot already: it takes none.
    this.#download = following(measured);
    const slots = registry.createSlots(this);
    const scheduler = registry.createScheduler(this);
    // With a journal (JOBDIR), a ticket's items are written when it closes, just before its
    // acknowledgement records the feed files' sizes; a resumed run first cuts its feeds back to
    // the sizes recorded last, removing the items of requests that will be crawled again.
    // The scheduler's capabilities, asked for once (src/contracts/scheduler.ts).
    const journal = journaledScheduler(scheduler);
    const shared = sharedQueue(scheduler);
    const journaled = journal !== null;
    let feeds: FeedExporter | null = null;
    if (journaled) {
      const recorded = tracksFeeds(scheduler)?.trackFeeds(() => feeds?.fileSizes() ?? {});
      if (recorded != null) {
        for (const path of FeedExporter.truncateFeedFiles({ ...recorded })) {
          this.logBus.getLogger('seine.extensions.feedexport').warning(`Removed from ${path} the items of requests the previous run did not finish (they are crawled again): cut back to ${recorded[path]} bytes`);
        }
      }
    }
    // Feeds open before any request is made, so a feed that cannot be written fails the run first.
    // Standard output's reader is slow: the crawl pauses until the pipe drains (not when the user paused it already,
    // whose pause is theirs to end). When every feed has stopped (a full disk, `-o - | head`), the crawl stops too.
    let heldForStdout = false;
    feeds = new FeedExporter(resolveFeeds(s, this.options.feeds), {
      spider: this.spider,
      // FEED_TEMPDIR, and what the stores of remote feeds read (AWS_*, FEED_STORAGE_FTP_ACTIVE, …).
      settings: s,
      logger: this.logBus.getLogger('seine.extensions.feedexport'),
      stats: this.stats,
      backpressure: (full) => {
        if (full && this.#state?.paused === false) {
          heldForStdout = true;
          this.#state.pause();
        } else if (!full && heldForStdout) {
          heldForStdout = false;
          this.#state?.resume();
        }
      },
      noFeedsLeft: (reason) => this.close(reason),
    });
    // --workers N: the workers' items come here, to the one set of feeds.
    const exportWorkerItem = feeds;
    coordinatesWorkers(scheduler)?.attachFeeds((item) => exportWorkerItem.exportItem(item));
    const state = new EngineState(s, this.spider, this, scheduler, slots, fetch, downloaderMws, spiderMws, pipelines, {
      maxActive: s.getInt('CONCURRENT_REQUESTS'),
      abort: this.abortController,
      commitPerTicket: journaled,
      warmUp: fetch.warmUp,
    });
    this.#state = state;
    this.#slottedDownload = following(slottedFetch(state, measured));
    const components = [...this.#extensions, ...downloaderMws, ...spiderMws, ...pipelines];
    // Scrapy's order: the engine says `Spider opened`, then extensions react (LogStats's first
    // line), then the telnet console, which opens last, says where it listens.
    rxjsConfig.onUnhandledError ??= this.#observerError;
    const engineLog = this.logBus.getLogger('seine.core.engine');
    engineLog.info('Spider opened');
    this.emit({ type: 'engine_started' });
    this.emit({ type: 'spider_opened', spider: this.spider });

    const opened: Array<{ closeSpider?(spider: Spider, reason: string): unknown }> = [];
    let failure: CrawlFailedError | null = null;
    try {
      // The scheduler opens first (Redis connects, JOBDIR says what it resumes): without it nothing can be crawled.
      await scheduler.open();
    } catch (error) {
      failure = new CrawlFailedError(`Cannot open the crawl: ${messageOf(error)}`, { cause: error });
    }
    for (const component of failure === null ? components : []) {
      try {
        await component.openSpider?.(this.spider);
        opened.push(component);
      } catch (error) {
        failure = new CrawlFailedError(`Cannot open the crawl: ${componentName(component)}.openSpider failed: ${messageOf(error)}`, { cause: error });
        break;
      }
    }

    if (failure === null) {
      const exporter = feeds;
      const flow = engineFlow(state, this.#parts.startOf(this.spider, spiderMws), {
        itemConcurrency: s.getInt('CONCURRENT_ITEMS'),
        onIdle: () => this.#sendIdle(),
        startOffset: journal?.startOffset ?? 0,
        onStartOutput: (count) => journal?.recordStart(count),
        onStartDone: (complete) => shared?.finishStart(complete),
      }).pipe(
        // exportItem never throws: a feed that fails on an item logs it, and the other feeds still get it.
        tap((scraped) => exporter.exportItem(scraped.item)),
      );
      try {
        await lastValueFrom(flow, { defaultValue: null });
      } catch (error) {
        // A missing package is the install's fault, not seine's: its own message says what to do.
        const what = isDependencyMissing(error) ? error.message : `The engine failed: ${messageOf(error)}`;
        failure = new CrawlFailedError(`${what} — the crawl stopped; feeds were finalised and stats dumped`, { cause: error });
        state.beginClose('engine_error');
      }
    }

    const reason = failure === null ? (state.closeReason ?? 'finished') : (state.closeReason ?? 'open_failed');
    await this.#close(reason, opened, feeds);
    // RxJS reports an observer's error from a timer: errors raised before the close still come after it.
    setTimeout(() => {
      if (rxjsConfig.onUnhandledError === this.#observerError) rxjsConfig.onUnhandledError = null;
    }, 0).unref();
    if (failure !== null) throw failure;
    return reason;
  }

  /**
   * An observer of `events$` that throws (an extension's subscription) is caught by RxJS, which
   * rethrows it later from a timer, killing the process with a stack trace. While this crawl runs,
   * and unless the process set a handler of its own, such an error is one ERROR line instead.
   */
  readonly #observerError = (error: unknown): void => {
    this.stats.inc('observer_errors');
    this.logBus.getLogger('seine.core.engine').error(`Error in an observer of crawler.events$: ${messageOf(error)}`);
  };

  /**
   * Scrapy's close_spider: every step runs even when an earlier one failed,
   * and each failure is one ERROR line naming the component.
   */
  async #close(reason: string, opened: ReadonlyArray<{ closeSpider?(spider: Spider, reason: string): unknown }>, feeds: FeedExporter): Promise<void> {
    const engineLog = this.logBus.getLogger('seine.core.engine');
    const step = async (what: string, action: () => unknown): Promise<void> => {
      try {
        await action();
      } catch (error) {
        engineLog.error(`${what} failed while closing the spider: ${messageOf(error)}`);
      }
    };
    // Errors that observers of events$ threw are reported by RxJS from timers: let them arrive (and be
    // logged, counted) before the close, rather than after the log and the stats are done.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    engineLog.info(`Closing spider (${reason})`);
    // --workers N: the workers finish first (their last items reach the feeds, their stats are merged).
    const workers = this.#state === null ? null : coordinatesWorkers(this.#state.scheduler);
    if (workers !== null) await step('Waiting for the workers', () => workers.drain(reason));
    for (const component of opened) await step(`${componentName(component)}.closeSpider`, () => component.closeSpider?.(this.spider, reason));
    await step('Finalising the feeds', () => feeds.close()); // Scrapy's FeedExporter closes on spider_closed: `Stored … feed` comes before the stats dump
    await step(`${this.spider.constructor.name}.closed`, () => (this.spider as { closed?: (reason: string) => unknown }).closed?.(reason)); // Scrapy's Spider.closed(reason)
    await step('A spider_closed handler', () => this.#dispatch({ type: 'spider_closed', reason })); // stats record finish_time and finish_reason
    // After spider_closed, so the last stats a shared frontier stores for `seine frontier … status` have finish_reason.
    const scheduler = this.#state?.scheduler;
    await step('Closing the scheduler', () => scheduler?.close(reason));
    await step('The stats dump', () => this.#parts.finishStats(this, reason));
    engineLog.info(`Spider closed (${reason})`);
    this.#finished = true;
    await step('An engine_stopped handler', () => this.#dispatch({ type: 'engine_stopped' }));
    this.#events.complete();
  }

  /** spider_idle to its handlers: DontCloseSpider keeps the crawl open, CloseSpider closes it with its reason. */
  async #sendIdle(): Promise<IdleVerdict> {
    const errors = await this.#dispatch({ type: 'spider_idle' });
    let closeReason: string | null = null;
    let keepOpen = false;
    for (const error of errors) {
      if (isCloseSpider(error)) closeReason ??= error.reason;
      else if (isDontCloseSpider(error)) keepOpen = true;
    }
    return keepOpen ? { keepOpen: true } : { keepOpen: false, closeReason };
  }

  /** Sends an event to the events$ observers and the signal handlers; resolves with the control-flow errors handlers threw (others are logged). */
  async #dispatch(event: CrawlEvent): Promise<Error[]> {
    this.#events.next(event);
    if (!this.signals.hasHandlers(event.type)) return [];
    const errors = await this.signals.send(event);
    for (const error of errors) {
      if (!isCloseSpider(error) && !isDontCloseSpider(error)) {
        this.logBus.getLogger('seine.utils.signal').error(`Error caught on signal handler for ${event.type}: ${messageOf(error)}`);
      }
    }
    return errors;
  }
}

/** Scrapy's engine.download follows at most this many replacements of one request (far above REDIRECT_MAX_TIMES and RETRY_TIMES). */
const MAX_DOWNLOAD_HOPS = 100;

function componentName(component: object): string {
  return component.constructor?.name ?? 'A component';
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
