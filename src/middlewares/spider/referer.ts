import type { Subscription } from 'rxjs';
import type { SpiderMiddleware, SpiderOutput } from '../../contracts/components.js';
import { filterOutputs, markFilterOnly, type OutputFilterFn } from '../../contracts/output-filter.js';
import { NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler } from '../../contracts/crawler.js';
import { isRequest, safeUrl, type Request } from '../../http/request.js';
import { Response } from '../../http/response.js';
import { defaultLogBus, type LogBus, type Logger } from '../../log/index.js';
import type { Spider } from '../../contracts/spider.js';
import { ReferrerPolicyError } from './referrer-policy-error.js';
import { REFERRER_POLICIES, SCRAPY_DEFAULT, resolveReferrerPolicy, type ReferrerPolicy, type ReferrerPolicySpec } from './referrer-policies.js';

export interface RefererOptions {
  /** REFERRER_POLICY: a W3C policy name, 'scrapy-default' (the default), or a policy object or class. */
  policy?: ReferrerPolicySpec;
  logBus?: LogBus;
}

/**
 * Sets the `Referer` header of the requests a callback yields from the
 * response's URL, as Scrapy's RefererMiddleware. The policy is, in order:
 * `meta.referrer_policy`, the response's `Referrer-Policy` header, then
 * REFERRER_POLICY (default 'scrapy-default': no-referrer-when-downgrade, so
 * nothing from https to http, and nothing from file:// or s3://). The URL
 * sent loses its credentials and fragment. A header the spider set itself
 * is kept. Redirected requests get their header re-checked against the
 * redirect target when they are scheduled (`requestScheduled`).
 */
export class RefererMiddleware implements SpiderMiddleware {
  readonly defaultPolicy: ReferrerPolicy;
  readonly #logger: Logger;
  readonly #warned = new Set<string>();
  #subscription: Subscription | undefined;

  constructor(options: RefererOptions = {}) {
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.spidermiddlewares.referer');
    if (options.policy === undefined || options.policy === null) {
      this.defaultPolicy = SCRAPY_DEFAULT;
    } else {
      const resolved = resolveReferrerPolicy(options.policy);
      if (resolved === null) throw new ReferrerPolicyError(options.policy, [...REFERRER_POLICIES.keys()]);
      this.defaultPolicy = resolved;
    }
  }

  static fromCrawler(crawler: Crawler): RefererMiddleware {
    if (!crawler.settings.getBool('REFERER_ENABLED')) throw new NotConfigured('REFERER_ENABLED is off');
    const middleware = new RefererMiddleware({
      policy: crawler.settings.get('REFERRER_POLICY') as ReferrerPolicySpec | undefined,
      logBus: crawler.logBus,
    });
    // Scrapy hooks the request_scheduled signal the same way to see redirected requests.
    middleware.#subscription = crawler.events$.subscribe((event) => {
      if (event.type === 'request_scheduled') middleware.requestScheduled(event.request);
    });
    return middleware;
  }

  processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider?: Spider): AsyncIterable<SpiderOutput> {
    // The referer needs no spider: callers outside a crawl may leave it out.
    return filterOutputs(this, response, result, spider as Spider);
  }

  outputFilter(response: Response): OutputFilterFn {
    return (output) => {
      if (isRequest(output)) this.#setReferer(output, response);
      return output;
    };
  }

  closeSpider(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = undefined;
  }

  /** The policy for a request made from `parent` (a response, or a URL standing in for one). */
  policyFor(parent: Response | string, request: Request): ReferrerPolicy {
    let name: unknown = request.meta.referrer_policy;
    if ((name === undefined || name === null) && parent instanceof Response) name = parent.headers.get('Referrer-Policy');
    if (name === undefined || name === null) return this.defaultPolicy;
    const resolved = resolveReferrerPolicy(name);
    if (resolved !== null) return resolved;
    const key = String(name);
    if (!this.#warned.has(key)) {
      this.#warned.add(key);
      this.#logger.warning(`Could not load referrer policy '${key}'`);
    }
    return this.defaultPolicy;
  }

  /**
   * For a redirected request (`meta.redirect_urls`), replaces or removes its
   * `Referer` so that it is what the policy allows toward the new URL; the
   * old header stands in for the parent response's URL.
   */
  requestScheduled(request: Request): void {
    const redirectUrls = request.meta.redirect_urls;
    if (!Array.isArray(redirectUrls) || redirectUrls.length === 0) return;
    const current = request.headers.get('Referer');
    if (current === null) return;
    const parentUrl = safeUrl(current);
    const allowed = this.policyFor(parentUrl, request).referrer(parentUrl, request.url);
    if (allowed === current) return;
    if (allowed === null) request.headers.delete('Referer');
    else request.headers.set('Referer', allowed);
  }

  #setReferer(request: Request, response: Response): void {
    const referrer = this.policyFor(response, request).referrer(response.url, request.url);
    if (referrer !== null) request.headers.setDefault('Referer', referrer);
  }
}

// The engine runs it as a filter (src/contracts/output-filter.ts) unless a subclass replaces processSpiderOutput.
markFilterOnly(RefererMiddleware.prototype.processSpiderOutput);
