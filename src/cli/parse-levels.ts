/**
 * The crawl behind `seine parse`, as Scrapy's parse command runs it: one
 * request for the URL whose callback is a wrapper that calls the spider's
 * real callback, records the items and requests it produced under their
 * depth level, and — while the level is below --depth — hands the requests
 * back to the engine wrapped the same way, so each level's requests are
 * downloaded (through the spider's middlewares) and parsed by their own
 * callbacks.
 */
import { callbackOutputs } from '../contracts/callback-output.js';
import { Request, isRequest, type Callback, type Errback } from '../http/request.js';
import type { Response } from '../http/response.js';
import { crawlerStartingWith, noResponseError, type CrawlOnceOptions } from '../shell/fetch-once.js';
import type { Spider } from '../contracts/spider.js';
import { CallbackNotFoundError, NoMatchingRuleError } from './parse-errors.js';

// Scrapy's meta keys: the level a request belongs to, and the callback the spider gave it.
const DEPTH = '_depth';
const CALLBACK = '_callback';

export interface ParseLevelsOptions extends CrawlOnceOptions {
  readonly url: string;
  /** -c NAME: the callback for requests that name none (the URL's, at least). */
  readonly callback?: string;
  /** -r: the URL's callback is that of the first CrawlSpider rule whose link extractor matches it. */
  readonly rules?: boolean;
  /** The deepest level parsed (≥ 1). */
  readonly depth: number;
  /** -m and --cbkwargs: merged into the URL's request. */
  readonly meta?: Record<string, unknown>;
  readonly cbKwargs?: Record<string, unknown>;
  /** Hand the items on to the engine too, for the item pipelines and feeds (-o/-O, --pipelines). */
  readonly passItems?: boolean;
}

export interface ParseResults {
  /** Items by level, levels in the order they first produced something (or nothing). */
  readonly items: ReadonlyMap<number, readonly unknown[]>;
  readonly requests: ReadonlyMap<number, readonly Request[]>;
}

/** A method of the spider by name, or null (Scrapy's `callable(getattr(spider, name))`). */
function method(spider: Spider, name: string): Callback | null {
  const value = (spider as unknown as Record<string, unknown>)[name];
  return typeof value === 'function' ? (value as Callback) : null;
}

interface RuleLike {
  readonly linkExtractor?: { matches?(url: string): boolean };
  readonly callback?: unknown;
}

/** The callback of the spider's first rule whose link extractor matches `url` (Scrapy's get_callback_from_rules). */
function ruleCallback(spider: Spider, url: string): Callback {
  // Read by shape, not `instanceof CrawlSpider`: any spider with rules qualifies, as in Scrapy.
  const rules = (spider as { rules?: unknown }).rules;
  if (!Array.isArray(rules) || rules.length === 0) throw new NoMatchingRuleError(url, spider.name, false);
  const rule = (rules as RuleLike[]).find((candidate) => candidate.linkExtractor?.matches?.(url) === true);
  if (rule === undefined) throw new NoMatchingRuleError(url, spider.name, true);
  if (typeof rule.callback === 'function') return rule.callback as Callback;
  const name = typeof rule.callback === 'string' && rule.callback !== '' ? rule.callback : 'parse';
  const found = method(spider, name);
  if (found === null) throw new CallbackNotFoundError(name, spider.name);
  return found;
}

function append<T>(levels: Map<number, T[]>, level: number, values: readonly T[]): void {
  levels.set(level, [...(levels.get(level) ?? []), ...values]);
}

/** Runs the crawl; throws the URL's download error, or a callback/rule lookup error, as one line. */
export async function parseLevels(options: ParseLevelsOptions): Promise<ParseResults> {
  const items = new Map<number, unknown[]>();
  const requests = new Map<number, Request[]>();
  let first: Response | null = null;
  let startError: Error | null = null;
  let lookupError: Error | null = null;

  const callbackFor = (spider: Spider, response: Response): Callback => {
    const own = response.meta[CALLBACK];
    if (typeof own === 'function') return own as Callback;
    if (options.callback !== undefined) return method(spider, options.callback)!;
    if (options.rules === true && response === first) return ruleCallback(spider, response.url);
    return method(spider, 'parse')!;
  };

  const levelCallback: Callback = async function* (response: Response, kwargs: Record<string, unknown>) {
    first ??= response;
    let callback: Callback;
    try {
      callback = callbackFor(spider, response);
    } catch (error) {
      lookupError = error as Error;
      return;
    }
    const level = Number(response.meta[DEPTH] ?? 1);
    const levelItems: unknown[] = [];
    const levelRequests: Request[] = [];
    for await (const output of callbackOutputs(callback.call(spider, response, kwargs))) {
      if (isRequest(output)) levelRequests.push(output);
      else levelItems.push(output);
    }
    append(items, level, levelItems);
    append(requests, level, levelRequests);
    if (options.passItems === true) yield* levelItems;
    if (level < options.depth) {
      for (const request of levelRequests) {
        yield request.replace({ callback: levelCallback, meta: { ...request.meta, [DEPTH]: level + 1, [CALLBACK]: request.callback } });
      }
    }
  };
  // Only the URL's own failure ends the command with an error; deeper ones are logged as in any crawl.
  const startErrback: Errback = (error: Error) => {
    startError = error;
  };
  const start = new Request(options.url, {
    callback: levelCallback,
    errback: startErrback,
    meta: { ...options.meta, [DEPTH]: 1, [CALLBACK]: null },
    cbKwargs: { ...options.cbKwargs },
  });

  const crawler = crawlerStartingWith(() => [start], options);
  const spider = crawler.spider;
  // A wrong -c fails before anything is downloaded.
  if (options.callback !== undefined && method(spider, options.callback) === null) throw new CallbackNotFoundError(options.callback, spider.name);
  await crawler.run();
  if (lookupError !== null) throw lookupError;
  if (first === null) throw noResponseError(start.url, startError);
  return { items, requests };
}
