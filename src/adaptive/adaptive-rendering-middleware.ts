/**
 * The spider middleware of `meta.playwright: 'auto'`: it judges each page
 * that was downloaded plain by what its callback made of it, and when the
 * plain page did not suffice, yields the same request again to be rendered
 * (rendered-after-plain.ts). It tells the RenderingPredictor what each
 * judged page showed, so later pages of the kind go the right way at once.
 *
 * The default rule ("did the plain page suffice?"):
 * - an item from the plain page: it sufficed. Outputs pass straight
 *   through, nothing is held back.
 * - no item: the page is rendered too, unless its kind was learned plain and
 *   the page gave requests (a page of links, as before). Requests the plain
 *   page gave pass through at once; the rendered page's outputs then go on
 *   except the requests the plain page already gave.
 * - what the rendering showed is learned: the rendered page added an item or
 *   a request the plain one lacked → the kind needs the browser; it added
 *   nothing → it does not (a page of links stays plain; an empty page stays
 *   empty either way).
 * So navigation in the page's template (menus, pagination) is not mistaken
 * for content: it is there plain and rendered alike.
 *
 * A spider's `needsBrowser(response, result)` replaces that rule: it sees
 * the plain page and everything its callback gave (so these outputs wait
 * for the callback to finish), and its answer is what the kind learns.
 *
 * Only 2xx responses are judged (an error page is not a page that needs a
 * script). A callback that throws on the plain page is taken as "needs the
 * browser": the error is logged at DEBUG and the page rendered; an error
 * on the rendered page is reported as usual.
 *
 * Every other response costs one meta lookup.
 */
import type { SpiderMiddleware, SpiderOutput } from '../contracts/components.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { Spider } from '../contracts/spider.js';
import { isRequest, type Item, type Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Logger } from '../log/index.js';
import { AUTO_STATS } from './auto-stats.js';
import { afterPlainMarker, renderedAfterPlain, type AfterPlainMarker } from './rendered-after-plain.js';
import { AFTER_PLAIN, RenderingPredictor } from './rendering-predictor.js';

/** What a plain page's callback gave, for the spider's `needsBrowser`. */
export interface PlainResult {
  items: Item[];
  requests: Request[];
}

/** The optional spider hook: `true` when the plain page (and what the callback made of it) needs the browser. */
export interface RenderAwareSpider {
  needsBrowser?(response: Response, result: PlainResult): boolean | Promise<boolean>;
}

export class AdaptiveRenderingMiddleware implements SpiderMiddleware {
  readonly #crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus'>;
  readonly #stats: StatsCollector;
  readonly #logger: Logger;
  #predictor: RenderingPredictor | undefined;
  /** Rendered pages whose callback threw: what they did not yield teaches nothing. */
  readonly #failed = new WeakSet<Response>();

  constructor(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus'>) {
    this.#crawler = crawler;
    this.#stats = crawler.stats;
    this.#logger = crawler.logBus.getLogger('seine.adaptive');
  }

  static fromCrawler(crawler: Crawler): AdaptiveRenderingMiddleware {
    return new AdaptiveRenderingMiddleware(crawler);
  }

  get #learned(): RenderingPredictor {
    return (this.#predictor ??= RenderingPredictor.of(this.#crawler));
  }

  /** Pages not fetched for `'auto'` rendering: their outputs pass untouched, and the engine may leave this middleware out. */
  passesOutputsOf(response: Response): boolean {
    return judged(response) === null;
  }

  processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider): AsyncIterable<SpiderOutput> {
    const request = judged(response);
    if (request === null) return result;
    const marker = afterPlainMarker(request.meta[AFTER_PLAIN]);
    if (!response.flags.includes('playwright')) {
      // A rendering answered by something other than the browser (a user's cache): judged already, passed on.
      return marker === undefined ? this.#plain(response, request, result, spider) : result;
    }
    if (marker === undefined) {
      this.#stats.inc(AUTO_STATS.rendered);
      return result;
    }
    return marker.compare ? this.#compared(response, request, result, marker) : result;
  }

  processSpiderException(response: Response, error: Error): SpiderOutput[] | null {
    const request = judged(response);
    if (request === null) return null;
    if (response.flags.includes('playwright') || request.meta[AFTER_PLAIN] !== undefined) {
      this.#failed.add(response);
      return null;
    }
    this.#logger.debug(`The callback failed on the plain page of ${request.toString()} (${error.name}: ${error.message}): rendering it`);
    return [this.#render(request, [], true)];
  }

  /** A plain page, judged by the default rule or the spider's needsBrowser. */
  async *#plain(response: Response, request: Request, result: AsyncIterable<SpiderOutput>, spider: Spider): AsyncIterable<SpiderOutput> {
    const hook = (spider as RenderAwareSpider).needsBrowser;
    if (typeof hook === 'function') {
      const outputs: SpiderOutput[] = [];
      for await (const output of result) outputs.push(output);
      const requests = outputs.filter(isRequest);
      // Our own rendering request, given back by processSpiderException: the page is being rendered already.
      if (requests.some(isAfterPlain)) return yield* outputs;
      let needed = false;
      try {
        needed = (await hook.call(spider, response, { items: outputs.filter((o) => !isRequest(o)), requests })) === true;
      } catch (error) {
        // The spider's question failed, not its page: keep what the plain page gave, and say so.
        this.#logger.error(`needsBrowser() threw on ${request.toString()}: ${error instanceof Error ? error.message : String(error)}; the plain page is kept`);
      }
      if (needed) {
        if (this.#learned.knownNeed(request) === false) this.#stats.inc(AUTO_STATS.mispredictionsCorrected);
        this.#learn(request, true);
        yield this.#render(request, [], false);
        return;
      }
      this.#learn(request, false);
      this.#stats.inc(AUTO_STATS.plain);
      return yield* outputs;
    }
    let items = 0;
    let rendering = false;
    const urls: string[] = [];
    for await (const output of result) {
      if (!isRequest(output)) {
        if (items++ === 0) {
          this.#learn(request, false);
          this.#stats.inc(AUTO_STATS.plain);
        }
      } else if (isAfterPlain(output)) {
        rendering = true;
      } else {
        if (items === 0 && urls.length === 0 && this.#learned.knownNeed(request) === undefined) this.#learned.suspect(request);
        urls.push(output.url);
      }
      yield output;
    }
    if (items > 0 || rendering) return;
    if (urls.length > 0 && this.#learned.knownNeed(request) === false) {
      this.#stats.inc(AUTO_STATS.plain);
      return;
    }
    yield this.#render(request, urls, true);
  }

  /** A page rendered after its plain download: what it adds decides what its kind needs. */
  async *#compared(response: Response, request: Request, result: AsyncIterable<SpiderOutput>, marker: AfterPlainMarker): AsyncIterable<SpiderOutput> {
    const given = new Set(marker.urls);
    let added = false;
    for await (const output of result) {
      if (isRequest(output) && given.has(output.url)) continue;
      if (!added) {
        added = true;
        this.#learn(request, true);
        if (marker.learnedPlain) this.#stats.inc(AUTO_STATS.mispredictionsCorrected);
      }
      yield output;
    }
    if (!added && !this.#failed.has(response)) this.#learn(request, false);
  }

  /** The rendering of a plain page that did not suffice; `compare`: its outputs will decide what the kind needs. */
  #render(request: Request, urls: string[], compare: boolean): Request {
    this.#stats.inc(AUTO_STATS.renderedAfterPlain);
    return renderedAfterPlain(request, { urls, compare, learnedPlain: compare && this.#learned.knownNeed(request) === false });
  }

  #learn(request: Request, needsBrowser: boolean): void {
    this.#learned.learn(request, needsBrowser);
  }
}

/** The request of an 'auto' response with a 2xx status, or null: the responses this middleware judges. */
function judged(response: Response): Request | null {
  const request = response.request;
  if (request === null || request.meta.playwright !== 'auto') return null;
  return response.status >= 200 && response.status < 300 ? request : null;
}

function isAfterPlain(output: SpiderOutput): boolean {
  return isRequest(output) && output.meta[AFTER_PLAIN] !== undefined;
}
