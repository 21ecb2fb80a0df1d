import type { DownloaderMiddleware } from '../../contracts/components.js';
import type { Crawler } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import { defaultLogBus, type LogBus, type Logger } from '../../log/index.js';
import type { Spider } from '../../contracts/spider.js';
import { hostnameOf, isUrlFromDomain } from '../../http/url/domain-match.js';
import { spiderAttribute } from './spider-attributes.js';

export interface HttpAuthOptions {
  /** Basic auth credentials; when both are empty no header is sent. Default: the spider's `httpUser`/`httpPass`. */
  user?: string;
  password?: string;
  /** Where credentials go: a domain and its subdomains; null = every domain; undefined = the first request's domain. */
  domain?: string | null;
  /** Where the missing-domain warning goes; `defaultLogBus` when absent. */
  logBus?: LogBus;
}

/** `Basic base64(user:password)`, encoded as ISO-8859-1 as w3lib's basic_auth_header. */
export function basicAuthHeader(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'latin1').toString('base64')}`;
}

const MISSING_DOMAIN_WARNING =
  'Using HttpAuthMiddleware without httpAuthDomain can cause security problems if the spider makes requests ' +
  'to several different domains. httpAuthDomain will be set to the domain of the first request, please set it ' +
  'to the correct value explicitly (or to null to send the credentials to every domain).';

/**
 * Sends HTTP Basic credentials from the spider's `httpUser`/`httpPass`, as
 * Scrapy 2.8's HttpAuthMiddleware: only to `httpAuthDomain` and its
 * subdomains, or, when the spider does not set it, to the domain of the first
 * request (with a warning); a request's own `Authorization` header is kept.
 */
export class HttpAuthMiddleware implements DownloaderMiddleware {
  readonly #options: HttpAuthOptions;
  readonly #logger: Logger;
  #auth: string | null = null;
  #domain: string | null = null;
  #domainUnset = false;
  #openedFor: Spider | undefined;

  constructor(options: HttpAuthOptions = {}) {
    this.#options = options;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.downloadermiddlewares.httpauth');
  }

  static fromCrawler(crawler: Crawler): HttpAuthMiddleware {
    return new HttpAuthMiddleware({ logBus: crawler.logBus });
  }

  openSpider(spider: Spider): void {
    this.#openedFor = spider;
    const user = this.#options.user ?? spiderAttribute(spider, 'httpUser') ?? '';
    const password = this.#options.password ?? spiderAttribute(spider, 'httpPass') ?? '';
    this.#auth = null;
    if (!user && !password) return;
    this.#auth = basicAuthHeader(String(user), String(password));
    const domain = 'domain' in this.#options ? this.#options.domain : spiderAttribute(spider, 'httpAuthDomain');
    if (domain === undefined) {
      this.#logger.warning(MISSING_DOMAIN_WARNING, { spider });
      this.#domainUnset = true;
    } else {
      this.#domain = domain;
      this.#domainUnset = false;
    }
  }

  processRequest(request: Request, spider: Spider): void {
    if (this.#openedFor !== spider) this.openSpider(spider);
    if (this.#auth === null || request.headers.has('Authorization')) return;
    if (this.#domainUnset) {
      // isUrlFromDomain compares the WHATWG host, which keeps an IPv6 address in brackets.
      const hostname = hostnameOf(request.url) ?? '';
      this.#domain = hostname.includes(':') ? `[${hostname}]` : hostname;
      this.#domainUnset = false;
    }
    if (!this.#domain || isUrlFromDomain(request.url, this.#domain)) request.headers.set('Authorization', this.#auth);
  }
}
