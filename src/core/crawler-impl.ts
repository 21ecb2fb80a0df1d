import { Subject, lastValueFrom, tap, type Observable } from 'rxjs';
import { Settings } from '../settings/index.js';
import { LogBus, type LogLevel } from '../log/index.js';
import { countLogEvents } from '../stats/index.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider, SpiderClass } from '../spider/spider.js';
import type { DownloaderMiddleware, Extension, ItemPipeline, SpiderMiddleware } from './components.js';
import type { Crawler, StatsCollector } from './crawler.js';
import type { CrawlEvent } from './events.js';
import { EngineState } from './engine-state.js';
import { engineFlow } from './engine.js';
import { logLineFor } from './log-formatter.js';
import { downloadThrough, measuredFetch } from './downloader-chain.js';
import { DownloadSlots } from '../throttle/download-slots.js';
import { buildComponents, orderedComponents, type ComponentOrderMap } from './component-list.js';
import { FeedExporter, resolveFeeds, type FeedSpec } from '../feeds/index.js';
import { CRAWL_DEFAULTS, type CrawlDefaults } from './crawl-defaults.js';

/**
 * A component list as the user gave it. `settings.get` reads a dict setting
 * as a plain object, which turns a Map's class keys into their source text
 * (UnknownComponentError for `new Map([[MyPipeline, 300]])`); a Map is kept
 * as it is, anything else (an object, JSON from `-s`) is read as a dict.
 */
function componentMap(settings: Settings, name: 'DOWNLOADER_MIDDLEWARES' | 'SPIDER_MIDDLEWARES' | 'ITEM_PIPELINES' | 'EXTENSIONS'): ComponentOrderMap {
  const raw = settings.getRaw(name);
  return raw instanceof Map ? (raw as ComponentOrderMap) : (settings.get(name) as ComponentOrderMap);
}

export interface CrawlerOptions {
  /** Spider arguments (`-a name=value`): strings, assigned after construction. */
  args?: Record<string, string>;
  /** Settings at the command line's priority (above the spider's customSettings). */
  settings?: Record<string, unknown>;
  /** Settings at the project's priority (a project's settings.ts). */
  projectSettings?: Record<string, unknown>;
  /** The network function and the other parts a test may replace. */
  parts?: Partial<CrawlDefaults>;
  /** Feeds to write besides the FEEDS setting (`-o` / `-O`); a FEEDS entry with the same path wins. */
  feeds?: FeedSpec[];
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
  #download: ((request: Request) => Promise<Response>) | null = null;

  constructor(
    readonly spiderClass: SpiderClass,
    readonly options: CrawlerOptions = {},
    logBus?: LogBus,
  ) {
    this.#parts = { ...CRAWL_DEFAULTS, ...options.parts };
    this.logBus = logBus ?? new LogBus();
    const settings = new Settings(options.projectSettings ?? {}, 'project');
    if (spiderClass.customSettings !== undefined) settings.setdict(spiderClass.customSettings, 'spider');
    if (options.settings !== undefined) settings.setdict(options.settings, 'cmdline');
    settings.freeze();
    this.settings = settings;
    this.stats = this.#parts.createStats(this);
    countLogEvents(this.logBus.events$, this.stats, settings.get('LOG_LEVEL') as LogLevel);
    this.spider = this.#parts.createSpider(spiderClass, options.args ?? {});
    this.spider.crawler = this;
    this.#events.subscribe((event) => {
      const line = logLineFor(event);
      if (line !== null) this.logBus.getLogger(line.logger).log(line.level, line.message);
    });
  }

  emit(event: CrawlEvent): void {
    this.#events.next(event);
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
          ['engine.active', s.active],
          ['engine.pending', s.pending],
          ['engine.scheduler.hasPending()', s.scheduler.hasPending()],
          ['engine.startDone', s.startDone],
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
   * response is logged and counted like any other.
   */
  download(request: Request): Promise<Response> {
    if (this.#download === null) return Promise.reject(new Error('The crawl has not started: nothing can be downloaded yet'));
    return this.#download(request);
  }

  close(reason: string): void {
    this.#state?.beginClose(reason);
  }

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

  /** Runs the crawl to its end; resolves with the finish reason. */
  async run(): Promise<string> {
    const s = this.settings;
    const registry = this.#parts;
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
    this.#download = async (request: Request): Promise<Response> => {
      const outcome = await downloadThrough(downloaderMws, request, this.spider, measured);
      if (outcome.kind === 'response') {
        this.emit({ type: 'response_received', request, response: outcome.response });
        return outcome.response;
      }
      throw outcome.kind === 'error' ? outcome.error : new Error(`${request.toString()} was redirected to ${outcome.next.toString()}`);
    };
    const slots = registry.createSlots(this);
    const state = new EngineState(
      s, this.spider, this, registry.createScheduler(this), slots, fetch,
      downloaderMws, spiderMws, pipelines,
      s.getInt('CONCURRENT_REQUESTS'),
      this.abortController,
    );
    this.#state = state;
    const components = [...this.#extensions, ...downloaderMws, ...spiderMws, ...pipelines];
    // Scrapy's order: the engine says `Spider opened`, then extensions react (LogStats's first
    // line), then the telnet console, which opens last, says where it listens.
    // Feeds open before anything else happens, so a feed that cannot be written fails the run before a request is made.
    const feeds = new FeedExporter(resolveFeeds(s, this.options.feeds), {
      spider: this.spider,
      logger: this.logBus.getLogger('seine.extensions.feedexport'),
      stats: this.stats,
    });
    this.logBus.getLogger('seine.core.engine').info('Spider opened');
    this.emit({ type: 'engine_started' });
    this.emit({ type: 'spider_opened', spider: this.spider });
    for (const c of components) await c.openSpider?.(this.spider);

    const flow = engineFlow(state, this.#parts.startOf(this.spider, spiderMws), s.getInt('CONCURRENT_ITEMS')).pipe(tap((scraped) => feeds.exportItem(scraped.item)));
    try {
      await lastValueFrom(flow, { defaultValue: null });
    } catch (error) {
      feeds.close(); // what was scraped before the failure is still a valid feed
      throw error;
    }

    const reason = state.closeReason ?? 'finished';
    this.logBus.getLogger('seine.core.engine').info(`Closing spider (${reason})`);
    for (const c of components) await c.closeSpider?.(this.spider, reason);
    feeds.close(); // Scrapy's FeedExporter closes on spider_closed: `Stored … feed` comes before the stats dump
    await (this.spider as { closed?: (reason: string) => unknown }).closed?.(reason); // Scrapy's Spider.closed(reason)
    this.emit({ type: 'spider_closed', reason }); // stats record finish_time and finish_reason
    this.#parts.finishStats(this, reason); // the stats dump
    this.logBus.getLogger('seine.core.engine').info(`Spider closed (${reason})`);
    this.emit({ type: 'engine_stopped' });
    this.#events.complete();
    return reason;
  }
}
