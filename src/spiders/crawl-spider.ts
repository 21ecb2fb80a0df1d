import { callbackOutputs } from '../contracts/callback-output.js';
import { InvalidUrlError } from '../http/http-errors.js';
import { Request, type CallbackOutput, type CallbackResult, type Errback } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Link } from '../link-extractor/link.js';
import { Spider, spiderClassName } from '../contracts/spider.js';
import { SpiderDefinitionError } from '../contracts/spider-errors.js';
import type { CompiledRule, ProcessLinks, ProcessRequest, Rule, RuleCallback } from './rule.js';

// Making and scheduling a followed request costs about 25 µs (measured with 200,000 queued), so 2,000 of them are ~50 ms.
const REQUESTS_PER_SLICE = 2000;

/** setImmediate, not a resolved promise: only a macrotask lets timers and I/O run. */
function turnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A spider that follows links by rules (Scrapy's CrawlSpider). Each
 * response of a start URL goes to `parseStartUrl` and has its links
 * followed; each response of a followed link goes to its rule's callback and
 * has its links followed when the rule says `follow`. On one page a link is
 * requested once, by the first rule (in `rules` order) that extracted it.
 *
 * `parse` is what does this, so a CrawlSpider must not define its own
 * `parse`: name the callbacks differently (`parseItem`).
 */
export class CrawlSpider extends Spider {
  /** The rules, in priority order. Read when the spider handles its first response. */
  rules: readonly Rule[] = [];
  #compiled: CompiledRule[] | null = null;

  /** Start URLs' responses: the outputs of parseStartUrl, then the links of every rule. */
  override parse(response: Response, kwargs: Record<string, unknown> = {}): CallbackResult {
    return this.parseResponse(response, this.parseStartUrl, kwargs, true);
  }

  /** What to do with a start URL's response besides following its links; default nothing. */
  parseStartUrl(response: Response, kwargs: Record<string, unknown>): CallbackResult {
    void response;
    void kwargs;
    return [];
  }

  /** Last look at what a callback produced for `response` (set ids, drop some); returns what to keep. */
  processResults(response: Response, results: CallbackOutput[]): Iterable<CallbackOutput> {
    void response;
    return results;
  }

  /** The callback of every request a rule made. */
  protected ruleCallback(response: Response, kwargs: Record<string, unknown>): CallbackResult {
    const compiled = this.compiledRules()[response.meta['rule'] as number]!;
    return this.parseResponse(response, compiled.callback, { ...compiled.rule.cbKwargs, ...kwargs }, compiled.rule.follow);
  }

  /** The errback of requests made by a rule that has one. */
  protected ruleErrback(error: Error, request: Request): CallbackResult {
    const compiled = this.compiledRules()[request.meta['rule'] as number]!;
    return compiled.errback?.call(this, error, request);
  }

  protected async *parseResponse(
    response: Response,
    callback: RuleCallback | null,
    kwargs: Record<string, unknown>,
    follow: boolean,
  ): AsyncIterable<CallbackOutput> {
    if (callback !== null) {
      const results: CallbackOutput[] = [];
      for await (const output of callbackOutputs(callback.call(this, response, kwargs))) results.push(output);
      for (const output of this.processResults(response, results) ?? []) if (output != null) yield output;
    }
    if (follow && this.followLinks) yield* this.requestsToFollow(response);
  }

  /** `CRAWLSPIDER_FOLLOW_LINKS` (default true): false makes rules only route responses, never follow links. */
  protected get followLinks(): boolean {
    return this.crawler?.settings.getBool('CRAWLSPIDER_FOLLOW_LINKS', true) ?? true;
  }

  /**
   * One request per link of every rule on an HTML page; a link another rule
   * already took on this page is skipped. A link no Request can be made from
   * (InvalidUrlError, e.g. `http://exa mple.com/`) is logged and counted
   * (skipInvalidLink) and the page's other links are followed. Scrapy makes
   * the request and its download fails, silently with the rule's errback.
   *
   * A huge page is handled in slices with a turn of the event loop between
   * them (timers, downloads and Ctrl-C go on: 200,000 links are seconds of
   * work); a page of fewer than a slice's links never waits.
   */
  protected async *requestsToFollow(response: Response): AsyncIterable<Request> {
    if (response.kind !== 'html') return;
    const seen = new Set<string>();
    const rules = this.compiledRules();
    for (let index = 0; index < rules.length; index++) {
      const compiled = rules[index]!;
      const links: Link[] = [];
      let slices = 0;
      for (const slice of compiled.rule.linkExtractor.extractLinkSlices(response)) {
        if (slices++ > 0) await turnOfTheLoop();
        for (const link of slice) if (!seen.has(link.key())) links.push(link);
      }
      const processed = compiled.processLinks === null ? links : compiled.processLinks.call(this, links);
      let made = 0;
      for (const link of processed) {
        if (++made % REQUESTS_PER_SLICE === 0) await turnOfTheLoop();
        seen.add(link.key());
        let request: Request;
        try {
          request = this.buildRequest(index, link, compiled);
        } catch (error) {
          if (!(error instanceof InvalidUrlError)) throw error;
          this.skipInvalidLink(response, link.url, error);
          continue;
        }
        const result = compiled.processRequest === null ? request : compiled.processRequest.call(this, request, response);
        if (result != null) yield result;
      }
    }
  }

  /**
   * Scrapy gives every rule request its errback, which swallows download
   * errors silently when the rule has none; here such requests have no
   * errback, so their errors are logged as any request's are.
   */
  protected buildRequest(ruleIndex: number, link: Link, compiled: CompiledRule): Request {
    return new Request(link.url, {
      callback: this.ruleCallback,
      errback: compiled.errback === null ? null : this.ruleErrback,
      meta: { rule: ruleIndex, link_text: link.text },
    });
  }

  /** The rules with their string hooks resolved to this spider's methods, once. */
  protected compiledRules(): CompiledRule[] {
    return (this.#compiled ??= this.rules.map((rule, index) => ({
      rule,
      callback: this.#method<RuleCallback>(rule.callback, index, 'callback'),
      errback: this.#method<Errback>(rule.errback, index, 'errback'),
      processLinks: this.#method<ProcessLinks>(rule.processLinks, index, 'processLinks'),
      processRequest: this.#method<ProcessRequest>(rule.processRequest, index, 'processRequest'),
    })));
  }

  // Scrapy silently ignores a name that is not a method, so a typo in `callback: 'parse_itme'` drops every page; seine says so.
  #method<F>(hook: F | string | null, index: number, option: string): F | null {
    if (typeof hook !== 'string') return hook;
    const method = (this as unknown as Record<string, unknown>)[hook];
    if (typeof method !== 'function') {
      const cls = spiderClassName(this.constructor);
      throw new SpiderDefinitionError(
        `${cls}.rules[${index}]: ${option} '${hook}' is not a method of ${cls}: define ${hook}() on the spider, or pass the function itself`,
      );
    }
    return method as F;
  }

  /** Resolves the rules before the first request, so a rule naming a missing method fails at start, not on the first page. */
  override async *start(): AsyncIterable<Request | Record<string, unknown>> {
    this.compiledRules();
    yield* super.start();
  }
}
