import { inspect } from 'node:util';
import type { Subscription } from 'rxjs';
import { InvalidUrlError } from '../http/http-errors.js';
import { Request, type CallbackResult, type RequestOptions } from '../http/request.js';
import { invalidLinkMessage, setInvalidLinkHandler, type Response } from '../http/response.js';
import { defaultLogBus, type Logger } from '../log/index.js';
import type { Crawler } from './crawler.js';
import type { Settings } from '../settings/settings.js';
import { SpiderDefinitionError } from './spider-errors.js';

import { SPIDER_BRAND, spiderClassName, spiderName } from './spider-brand.js';

export { spiderName, spiderClassName, extendsSpider, isSpiderClass, isSpider } from './spider-brand.js';

/** Stats key: start URLs and links skipped because no Request can be made from them (InvalidUrlError). */
export const INVALID_URL_STAT = 'spider/invalid_url';

/**
 * The base class of spiders. A subclass with a `static name` is a spider;
 * one without is a base class. Arguments given with `-a name=value` are
 * assigned after construction (createSpider), so fields declared
 * `tag?: string` hold them.
 */
export class Spider {
  declare readonly [SPIDER_BRAND]: true;

  /** Settings this spider overrides, read before it is constructed (priority 'spider'). */
  static customSettings?: Record<string, unknown>;

  /** URLs the default `start()` requests, with `parse` as callback. */
  startUrls: string[] = [];
  /** When set, requests to other domains are dropped (offsite). */
  allowedDomains?: string[];
  #crawler: Crawler | undefined;
  #crawlerEvents: Subscription | undefined;
  /**
   * Data kept across runs of a paused and resumed crawl: with JOBDIR, the
   * SpiderState extension loads it when the spider opens and saves it (as
   * JSON) when it closes. Without JOBDIR it starts empty and is not kept.
   */
  state: Record<string, unknown> = {};

  /** `args` are the spider arguments; createSpider() also assigns them to the instance after this returns. */
  constructor(args: Readonly<Record<string, unknown>> = {}) {
    void args;
  }

  /**
   * The crawler that runs this spider; set by it before `start()`. Every
   * response the crawl receives then reports the links its followAll()
   * cannot make a Request from to this spider (skipInvalidLink).
   */
  get crawler(): Crawler | undefined {
    return this.#crawler;
  }

  set crawler(crawler: Crawler | undefined) {
    this.#crawlerEvents?.unsubscribe();
    this.#crawler = crawler;
    const onInvalidLink = (response: Response, link: string, error: InvalidUrlError): void => this.skipInvalidLink(response, link, error);
    // response_received comes before the response's callback runs (Scrapy's signal order).
    this.#crawlerEvents = crawler?.events$?.subscribe((event) => {
      if (event.type === 'response_received') setInvalidLinkHandler(event.response, onInvalidLink);
    });
  }

  /**
   * The crawl's settings, frozen (Scrapy's `self.settings`): every layer,
   * defaults < project < customSettings < `-s`, with the typed getters
   * (`this.settings.getInt('CONCURRENT_REQUESTS')`). There from the moment
   * the crawler binds the spider, right after constructing it: in `start()`,
   * callbacks, errbacks and `closed()`, not in the constructor.
   */
  get settings(): Settings {
    const crawler = this.#crawler;
    if (crawler === undefined) {
      throw new SpiderDefinitionError(
        `${spiderClassName(this.constructor)}.settings is not set yet: the crawler gives the spider its settings after constructing it; read them in start() or a callback, not in the constructor`,
      );
    }
    return crawler.settings;
  }

  /** The spider's name: its class's `static name` (the class name for a base class). */
  get name(): string {
    return spiderName(this.constructor) ?? this.constructor.name;
  }

  /** Logs under the spider's name, into the crawl's log stream (the process-wide bus before the spider is crawling). */
  get logger(): Logger {
    return (this.crawler?.logBus ?? defaultLogBus).getLogger(this.name);
  }

  /**
   * The first requests (and items). Default: one GET per `startUrls` entry,
   * with `parse` as callback and `dontFilter` (start URLs are not
   * duplicate-filtered), as Scrapy's `start_requests`. An entry no Request
   * can be made from is skipped with an ERROR line (startRequest); the
   * others are still requested.
   */
  async *start(): AsyncIterable<Request | Record<string, unknown>> {
    if (this.startUrls.length === 0) {
      const instead = notStartUrls(this);
      if (instead !== null) throw new SpiderDefinitionError(`Crawling could not start: 'startUrls' not found or empty (${instead})`);
    }
    if (typeof this.startUrls === 'string') {
      // Iterating a string would request each of its characters.
      throw new SpiderDefinitionError(`Crawling could not start: 'startUrls' is a string, not a list of URLs: write startUrls = ['${this.startUrls as string}']`);
    }
    for (const url of this.startUrls) {
      const request = this.startRequest(url, { dontFilter: true });
      if (request !== null) yield request;
    }
  }

  /**
   * The Request for a URL the user listed (`startUrls`, SitemapSpider's
   * `sitemapUrls`), or null when none can be made from it: then one ERROR
   * line names the value and the fix, `spider/invalid_url` counts it, and
   * the start goes on with the next URL (Scrapy's start_requests fails and
   * every later start URL is lost).
   */
  protected startRequest(url: unknown, options: RequestOptions = {}): Request | null {
    if (typeof url !== 'string') {
      this.#countInvalidUrl();
      this.logger.error(`Skipping start URL ${inspect(url)}: not a string but ${url === null ? 'null' : `a ${typeof url}`} (list start URLs as strings, such as 'https://example.com/')`);
      return null;
    }
    try {
      return new Request(url, options);
    } catch (error) {
      if (!(error instanceof InvalidUrlError)) throw error;
      this.#countInvalidUrl();
      this.logger.error(`Skipping start URL '${url}': ${error.message}`);
      return null;
    }
  }

  /**
   * A link on `response` that no Request can be made from (a CrawlSpider
   * rule's, a SitemapSpider's, or one given to `response.followAll()`): one
   * WARNING line with the page and the link, counted in `spider/invalid_url`;
   * the other links are followed. Override to repair or record such links.
   */
  protected skipInvalidLink(response: Response, link: string, error: InvalidUrlError): void {
    this.#countInvalidUrl();
    this.logger.warning(invalidLinkMessage(response, link, error));
  }

  #countInvalidUrl(): void {
    this.crawler?.stats.inc(INVALID_URL_STAT);
  }

  /**
   * The default callback; a spider that yields requests without a callback
   * must define it. `kwargs` is the request's `cbKwargs`.
   */
  parse(response: Response, kwargs?: Record<string, unknown>): CallbackResult {
    void kwargs;
    throw new SpiderDefinitionError(
      `${spiderClassName(this.constructor)}.parse callback is not defined: add a parse(response) method, or give the Request for ${response.url} a callback`,
    );
  }

  /** `<QuotesSpider 'quotes'>`, as Scrapy prints a spider (without the address). */
  toString(): string {
    return `<${spiderClassName(this.constructor)} '${this.name}'>`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}
Object.defineProperty(Spider.prototype, SPIDER_BRAND, { value: true });

/** Why a spider with no startUrls has none: a misspelling the default start() names, or null. */
function notStartUrls(spider: Spider): string | null {
  const own = spider as unknown as Record<string, unknown>;
  if (own['startUrl'] !== undefined) return "but found 'startUrl' attribute instead, did you miss an 's'?";
  if (own['start_urls'] !== undefined) return "but found Scrapy's 'start_urls' attribute instead: seine spells it startUrls";
  for (const method of ['start_requests', 'startRequests']) {
    if (typeof own[method] === 'function') return `and seine never calls ${method}(): rename it start(), an async generator (async *start() { … })`;
  }
  return null;
}

export type SpiderClass<S extends Spider = Spider> = (new (args?: Readonly<Record<string, unknown>>) => S) & {
  customSettings?: Record<string, unknown>;
};

