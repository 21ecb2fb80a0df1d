import { domainToASCII } from 'node:url';
import type { SpiderMiddleware, SpiderOutput } from '../../contracts/components.js';
import { filterOutputs, markFilterOnly, type OutputFilterFn } from '../../contracts/output-filter.js';
import type { Crawler, StatsCollector } from '../../contracts/crawler.js';
import { isRequest, type Request } from '../../http/request.js';
import { hostnameOf } from '../../http/url/domain-match.js';
import type { Response } from '../../http/response.js';
import { escapeRegExp } from '../../escape-regexp.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import type { Spider } from '../../contracts/spider.js';
import { NULL_STATS, type ComponentOptions } from './component-options.js';
import { schemeOf } from './referrer-policies.js';

export interface OffsiteOptions extends ComponentOptions {
  /** Overrides the spider's `allowedDomains` (for pipelines assembled by hand). */
  allowedDomains?: readonly (string | null | undefined)[];
  /** Told of each filtered request (the crawl's `request_dropped` event with reason `offsite`). */
  onDropped?: (request: Request) => void;
  /** ALLOW_LOCAL_SCHEMES_FROM_REMOTE: let a remote page's callbacks request file: and data: URLs (default false). */
  allowLocalSchemesFromRemote?: boolean;
}

/** The schemes that read this machine (file:) or need no network (data:): never fetched for a remote page by default. */
export const LOCAL_SCHEMES: readonly string[] = ['file:', 'data:'];
const REMOTE_SCHEMES = new Set(['http:', 'https:']);

/**
 * True when `request` reads a local scheme (file:, data:) and comes from a
 * remote (http/https) page: a hostile page's `<a href="file:///etc/passwd">`
 * (docs/security.md, "Local schemes").
 */
export function isLocalSchemeFromRemote(request: Request, response: Response | null | undefined): boolean {
  if (response === null || response === undefined) return false;
  // Runs for every request a callback yields, nearly all http(s): one character decides before any regex.
  const first = request.url.charCodeAt(0) | 0x20;
  if (first !== 0x66 /* f */ && first !== 0x64 /* d */) return false;
  if (!LOCAL_SCHEMES.includes(`${schemeOf(request.url)}:`)) return false;
  return REMOTE_SCHEMES.has(`${schemeOf(response.url)}:`);
}

const URL_ENTRY = /^https?:\/\/.*$/;
const PORT_ENTRY = /:\d+$/;
const ALLOW_ALL = /(?:)/;

/**
 * Drops requests a callback yields for hosts outside the spider's
 * `allowedDomains` (a domain allows its subdomains too), as Scrapy 2.8's
 * OffsiteMiddleware: `Filtered offsite request to 'host': <GET url>` at DEBUG
 * the first time a host is seen, stats `offsite/domains` (hosts) and
 * `offsite/filtered` (requests). `dontFilter` requests pass. Start requests
 * do not go through it (Scrapy 2.8 filters only callback output).
 *
 * seine also drops file: and data: requests yielded for a remote (http or
 * https) page, `dontFilter` or not, unless ALLOW_LOCAL_SCHEMES_FROM_REMOTE:
 * a WARNING the first time per scheme, stat `offsite/local_scheme`, and a
 * `request_dropped` event with reason `offsite`. Start requests (a
 * `file:///…` start URL) and the shell's `fetch()` do not go through it.
 */
export class OffsiteMiddleware implements SpiderMiddleware {
  readonly #stats: StatsCollector;
  readonly #logger: Logger;
  readonly #allowedDomains: readonly (string | null | undefined)[] | undefined;
  readonly #onDropped: ((request: Request) => void) | undefined;
  #hostRegex: RegExp | undefined;
  #domainsSeen = new Set<string>();
  readonly #allowLocalSchemes: boolean;
  #localSchemesWarned = new Set<string>();

  constructor(options: OffsiteOptions = {}) {
    this.#stats = options.stats ?? NULL_STATS;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.spidermiddlewares.offsite');
    this.#allowedDomains = options.allowedDomains;
    this.#onDropped = options.onDropped;
    this.#allowLocalSchemes = options.allowLocalSchemesFromRemote ?? false;
  }

  static fromCrawler(crawler: Crawler): OffsiteMiddleware {
    return new OffsiteMiddleware({
      stats: crawler.stats,
      logBus: crawler.logBus,
      onDropped: (request) => crawler.emit({ type: 'request_dropped', request, reason: 'offsite' }),
      allowLocalSchemesFromRemote: crawler.settings.getBool('ALLOW_LOCAL_SCHEMES_FROM_REMOTE'),
    });
  }

  openSpider(spider: Spider): void {
    this.#hostRegex = this.#buildHostRegex(spider);
    this.#domainsSeen = new Set();
    this.#localSchemesWarned = new Set();
  }

  processSpiderOutput(response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider): AsyncIterable<SpiderOutput> {
    return filterOutputs(this, response, result, spider);
  }

  outputFilter(response: Response, spider: Spider): OutputFilterFn {
    return (output) => (this.#localSchemePasses(output, response, spider) && this.#passes(output, spider) ? output : null);
  }

  #localSchemePasses(output: SpiderOutput, response: Response, spider: Spider): boolean {
    if (this.#allowLocalSchemes || !isRequest(output) || !isLocalSchemeFromRemote(output, response)) return true;
    const scheme = `${schemeOf(output.url)}:`;
    if (!this.#localSchemesWarned.has(scheme)) {
      this.#localSchemesWarned.add(scheme);
      const shown = output.url.length > 100 ? `${output.url.slice(0, 100)}…` : output.url;
      this.#logger.warning(
        `Dropped a ${scheme} request from the remote page <${response.url}>: '${shown}' ` +
          `(a remote page cannot make seine read local files; set ALLOW_LOCAL_SCHEMES_FROM_REMOTE=true to allow it; ` +
          `further ${scheme} requests from remote pages are counted in offsite/local_scheme)`,
        { spider },
      );
    }
    this.#stats.inc('offsite/local_scheme');
    this.#onDropped?.(output);
    return false;
  }

  /** True when `request` goes to an allowed host (Scrapy's `should_follow`). */
  shouldFollow(request: Request, spider: Spider): boolean {
    this.#hostRegex ??= this.#buildHostRegex(spider);
    // Without allowedDomains every host passes: no URL to parse for it (one per link of every page).
    if (this.#hostRegex === ALLOW_ALL) return true;
    return this.#hostRegex.test(hostnameOf(request.url) ?? '');
  }

  #passes(output: SpiderOutput, spider: Spider): boolean {
    if (!isRequest(output)) return true;
    if (output.dontFilter || this.shouldFollow(output, spider)) return true;
    const domain = hostnameOf(output.url);
    // Hostless URLs (javascript:, mailto:) are counted but not logged, as in Scrapy.
    if (domain && !this.#domainsSeen.has(domain)) {
      this.#domainsSeen.add(domain);
      this.#logger.debug(`Filtered offsite request to '${domain}': ${output.toString()}`, { spider });
      this.#stats.inc('offsite/domains');
    }
    this.#stats.inc('offsite/filtered');
    this.#onDropped?.(output);
    return false;
  }

  #buildHostRegex(spider: Spider): RegExp {
    const entries = this.#allowedDomains ?? spider.allowedDomains;
    if (entries === undefined || entries.length === 0) return ALLOW_ALL;
    const domains: string[] = [];
    for (const entry of entries) {
      if (entry === null || entry === undefined) continue;
      if (URL_ENTRY.test(entry)) {
        this.#logger.warning(`allowedDomains accepts only domains, not URLs. Ignoring URL entry ${entry} in allowedDomains.`, { spider });
      } else if (PORT_ENTRY.test(entry)) {
        this.#logger.warning(`allowedDomains accepts only domains without ports. Ignoring entry ${entry} in allowedDomains.`, { spider });
      } else {
        domains.push(escapeRegExp(asciiDomain(entry)));
      }
    }
    // With every entry rejected this matches no host, so everything is offsite: Scrapy's behaviour too.
    return new RegExp(`^(.*\\.)?(${domains.join('|')})$`);
  }
}

// The engine runs it as a filter (src/contracts/output-filter.ts) unless a subclass replaces processSpiderOutput.
markFilterOnly(OffsiteMiddleware.prototype.processSpiderOutput);

// Hosts come out of WHATWG URL parsing lower-cased and punycoded, so entries
// are brought to the same form; Scrapy compares them as written, which
// silently filters everything for an entry like 'Example.com'.
function asciiDomain(domain: string): string {
  const lower = domain.toLowerCase();
  if (/^[\x00-\x7f]*$/.test(lower)) return lower;
  return domainToASCII(lower) || lower;
}
