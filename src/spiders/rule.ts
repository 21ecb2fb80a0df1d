import type { Errback, Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { LinkExtractor } from '../link-extractor/link-extractor.js';
import type { Link } from '../link-extractor/link.js';
import type { CallbackResult } from '../http/request.js';

// `this` is the spider in every hook; `any` keeps spider subclasses assignable (as Callback does).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RuleCallback = (this: any, response: Response, kwargs: Record<string, unknown>) => CallbackResult;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProcessLinks = (this: any, links: Link[]) => Iterable<Link>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProcessRequest = (this: any, request: Request, response: Response) => Request | null | undefined;

export interface RuleOptions {
  /** Called with each response of a followed link: a function, or the name of a spider method. */
  callback?: RuleCallback | string | null;
  /** Called when a followed link's request fails: a function, or the name of a spider method. */
  errback?: Errback | string | null;
  /** Passed to the callback as its second argument (merged under the request's own cbKwargs). */
  cbKwargs?: Record<string, unknown>;
  /** Follow links on the pages this rule reached; default: true when there is no callback, false otherwise (Scrapy's rule). */
  follow?: boolean;
  /** Filters or rewrites the links this rule extracted from a page, before requests are made. */
  processLinks?: ProcessLinks | string | null;
  /** Rewrites each request (or drops it by returning null). */
  processRequest?: ProcessRequest | string | null;
}

const DEFAULT_EXTRACTOR = new LinkExtractor();

/**
 * How a CrawlSpider follows links: which links (the extractor), what to do
 * with the pages they lead to (callback), and whether to follow the links
 * found there too. Hooks given as strings name methods of the spider; they
 * are looked up when the spider first uses its rules.
 */
export class Rule {
  readonly linkExtractor: LinkExtractor;
  readonly callback: RuleCallback | string | null;
  readonly errback: Errback | string | null;
  readonly cbKwargs: Record<string, unknown>;
  readonly follow: boolean;
  readonly processLinks: ProcessLinks | string | null;
  readonly processRequest: ProcessRequest | string | null;

  constructor(linkExtractor: LinkExtractor | null = null, options: RuleOptions = {}) {
    this.linkExtractor = linkExtractor ?? DEFAULT_EXTRACTOR;
    this.callback = options.callback ?? null;
    this.errback = options.errback ?? null;
    this.cbKwargs = { ...options.cbKwargs };
    this.follow = options.follow ?? !this.callback;
    this.processLinks = options.processLinks ?? null;
    this.processRequest = options.processRequest ?? null;
  }
}

/** A rule with its hooks resolved to functions (Scrapy's `Rule._compile`). */
export interface CompiledRule {
  readonly rule: Rule;
  readonly callback: RuleCallback | null;
  readonly errback: Errback | null;
  readonly processLinks: ProcessLinks | null;
  readonly processRequest: ProcessRequest | null;
}
