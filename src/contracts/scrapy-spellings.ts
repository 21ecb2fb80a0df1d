/**
 * A spider ported from Scrapy keeps Scrapy's snake_case member names
 * (`start_urls`, `start_requests()`, `custom_settings`) until each is
 * renamed; seine reads the camelCase ones, so every one left behind would be
 * ignored without a word, and a spider whose only start URLs are in
 * `start_urls` crawls nothing and exits 0. The crawler logs one WARNING per
 * such member when the spider opens (docs/coming-from-scrapy.md).
 */
import type { Spider } from './spider.js';
import { spiderClassName } from './spider-brand.js';

// Scrapy's spider attributes → the names seine reads (the spider classes, the middlewares' spider-attributes.ts,
// the download slots and AutoThrottle for downloadDelay and maxConcurrentRequests).
const ATTRIBUTES: Readonly<Record<string, string>> = {
  start_urls: 'startUrls',
  allowed_domains: 'allowedDomains',
  download_delay: 'downloadDelay',
  max_concurrent_requests: 'maxConcurrentRequests',
  download_timeout: 'downloadTimeout',
  user_agent: 'userAgent',
  http_user: 'httpUser',
  http_pass: 'httpPass',
  http_auth_domain: 'httpAuthDomain',
  handle_httpstatus_list: 'handleHttpstatusList',
  sitemap_urls: 'sitemapUrls',
  sitemap_rules: 'sitemapRules',
  sitemap_follow: 'sitemapFollow',
  sitemap_alternate_links: 'sitemapAlternateLinks',
};

// Scrapy's methods seine calls under another name. `startRequests` is how a porting user camel-cases
// start_requests; seine's start() is Scrapy 2.13's `async def start()`.
const METHODS: Readonly<Record<string, string>> = {
  start_requests: 'start',
  startRequests: 'start',
  parse_start_url: 'parseStartUrl',
  process_results: 'processResults',
  adapt_response: 'adaptResponse',
  parse_node: 'parseNode',
  parse_nodes: 'parseNodes',
  parse_row: 'parseRow',
  sitemap_filter: 'sitemapFilter',
};

// Attributes that only a spider class seine has reads: reported only where that class is the base.
const OWNED_BY_A_BASE = new Set(['sitemapUrls', 'sitemapRules', 'sitemapFollow', 'sitemapAlternateLinks']);

/**
 * The prototype that defines `name` itself, searching from the instance up.
 * Instances count: a class field lives on the instance.
 */
function definer(spider: object, name: string): object | null {
  for (let at: object | null = spider; at !== null && at !== Object.prototype; at = Object.getPrototypeOf(at) as object | null) {
    if (Object.hasOwn(at, name)) return at;
  }
  return null;
}

/** True when `name` is defined at `from` or below it (on a subclass of the class that defines the other). */
function definedFrom(spider: object, from: object, name: string): boolean {
  for (let at: object | null = spider; at !== null; at = Object.getPrototypeOf(at) as object | null) {
    if (Object.hasOwn(at, name)) return true;
    if (at === from) return false;
  }
  return false;
}

/**
 * One line per Scrapy spelling `spider` carries, in the order of the tables
 * above: `QuotesSpider.start_urls (tutorial/spiders/quotes.ts) is ignored:
 * seine spells it startUrls`. `file` names where the class came from, when
 * known.
 */
export function scrapySpellingWarnings(spider: Spider, file?: string): string[] {
  const cls = spider.constructor;
  const where = (member: string): string => `${spiderClassName(cls)}.${member}${file === undefined ? '' : ` (${file})`}`;
  const lines: string[] = [];
  for (const [scrapy, seine] of Object.entries(ATTRIBUTES)) {
    if (definer(spider, scrapy) === null) continue;
    if (OWNED_BY_A_BASE.has(seine) && !(seine in spider)) continue;
    lines.push(`${where(scrapy)} is ignored: seine spells it ${seine}`);
  }
  for (const [scrapy, seine] of Object.entries(METHODS)) {
    const at = definer(spider, scrapy);
    if (at === null || typeof (spider as unknown as Record<string, unknown>)[scrapy] !== 'function') continue;
    // A class that defines seine's method too (its start() calling its start_requests()) means it.
    if (definedFrom(spider, at, seine)) continue;
    if (seine !== 'start' && !(seine in spider)) continue;
    const how = seine === 'start' ? 'start() instead (an async generator: async *start() { … })' : `${seine}() instead`;
    lines.push(`${where(`${scrapy}()`)} is never called: seine calls ${how}`);
  }
  if ('custom_settings' in cls) {
    lines.push(`${where('custom_settings')} is ignored: seine spells it static customSettings`);
  }
  if (definer(spider, 'customSettings') !== null) {
    lines.push(`${where('customSettings')} is ignored: seine reads customSettings from the class, before the spider is constructed: declare it static`);
  }
  return lines;
}
