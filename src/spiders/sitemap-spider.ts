import { InvalidUrlError } from '../http/http-errors.js';
import { Request, type Callback } from '../http/request.js';
import type { Response } from '../http/response.js';
import { defaultLogBus } from '../log/index.js';
import { Spider, spiderClassName } from '../contracts/spider.js';
import { SpiderDefinitionError } from '../contracts/spider-errors.js';
import { GunzipSizeError, gunzip, isGzipped } from './gunzip.js';
import { Sitemap, sitemapUrlsFromRobots, type SitemapEntry } from './sitemap.js';

/** A URL pattern (searched anywhere in the URL) and the callback, or the name of the spider's method, for the URLs it matches. */
export type SitemapRule = readonly [pattern: string | RegExp, callback: string | Callback];

interface CompiledSitemapRules {
  rules: Array<{ pattern: RegExp; callback: Callback }>;
  follow: RegExp[];
}

/**
 * A spider that crawls a site from its sitemaps (Scrapy's SitemapSpider).
 * Each of `sitemapUrls` is requested with `parseSitemap` as callback: a
 * robots.txt gives its `Sitemap:` URLs, a sitemap index the sitemaps that
 * `sitemapFollow` matches, and a urlset its page URLs, each requested with
 * the callback of the first of `sitemapRules` whose pattern matches it.
 * `sitemapFilter(entries)` sees the entries of every sitemap first.
 */
export class SitemapSpider extends Spider {
  /** Sitemaps, sitemap indexes, or robots.txt URLs (ending in `/robots.txt`) to start from. */
  sitemapUrls: readonly string[] = [];
  /** `[pattern, callback]` pairs, in priority order; a URL no pattern matches is not requested. */
  sitemapRules: readonly SitemapRule[] = [['', 'parse']];
  /** Patterns of the sitemap index entries to follow; default every one. */
  sitemapFollow: ReadonlyArray<string | RegExp> = [''];
  /** Also request the `<xhtml:link rel="alternate" href>` URLs of each entry. */
  sitemapAlternateLinks = false;
  #compiled: CompiledSitemapRules | null = null;

  /**
   * One request per sitemap URL (duplicate-filtered, as Scrapy's are); one
   * no Request can be made from is skipped with an ERROR line
   * (startRequest). Checks the rules first, so a bad one fails at start.
   */
  override async *start(): AsyncIterable<Request | Record<string, unknown>> {
    this.compiledSitemapRules();
    for (const url of this.sitemapUrls) {
      const request = this.startRequest(url, { callback: this.parseSitemap });
      if (request !== null) yield request;
    }
  }

  /** Chooses which entries of a sitemap (or sitemap index) to use, e.g. by `entry.lastmod`; default all. */
  *sitemapFilter(entries: Iterable<SitemapEntry>): Iterable<SitemapEntry> {
    yield* entries;
  }

  /**
   * The callback of every sitemap and robots.txt request. A URL in it that
   * no Request can be made from is logged and counted (skipInvalidLink);
   * the others are requested.
   */
  *parseSitemap(response: Response): Generator<Request> {
    const request = (url: string, callback: Callback): Request | null => {
      try {
        return new Request(url, { callback });
      } catch (error) {
        if (!(error instanceof InvalidUrlError)) throw error;
        this.skipInvalidLink(response, url, error);
        return null;
      }
    };
    if (response.url.endsWith('/robots.txt')) {
      for (const url of sitemapUrlsFromRobots(response.text, response.url)) {
        const sitemap = request(url, this.parseSitemap);
        if (sitemap !== null) yield sitemap;
      }
      return;
    }
    const body = this.sitemapBody(response);
    const sitemap = body === null ? null : new Sitemap(body);
    if (sitemap === null || sitemap.type === null) {
      (this.crawler?.logBus ?? defaultLogBus).getLogger('seine.spiders.sitemap').warning(`Ignoring invalid sitemap: ${response}`);
      return;
    }
    const { rules, follow } = this.compiledSitemapRules();
    const entries = this.sitemapFilter(sitemap);
    if (sitemap.type === 'sitemapindex') {
      for (const loc of locations(entries, this.sitemapAlternateLinks)) {
        if (!follow.some((pattern) => loc.search(pattern) !== -1)) continue;
        const sitemap = request(loc, this.parseSitemap);
        if (sitemap !== null) yield sitemap;
      }
    } else if (sitemap.type === 'urlset') {
      for (const loc of locations(entries, this.sitemapAlternateLinks)) {
        const rule = rules.find(({ pattern }) => loc.search(pattern) !== -1);
        if (rule === undefined) continue;
        const page = request(loc, rule.callback);
        if (page !== null) yield page;
      }
    }
  }

  /**
   * The sitemap in a response, or null when it holds none (Scrapy's
   * `_get_sitemap_body`): an XML response's body; a gzip body decompressed
   * (a `.xml.gz` file served as application/octet-stream); the body of a
   * URL ending `.xml` or `.xml.gz` (one whose Content-Encoding the
   * downloader already undid). Anything else, plain-text sitemaps included,
   * is not a sitemap. A gzip body that decompresses past DOWNLOAD_MAXSIZE is
   * dropped with a warning (Scrapy 2.11's rule; 2.8 had no bound, so a small
   * gzip bomb could exhaust memory).
   */
  sitemapBody(response: Response): Buffer | null {
    if (response.kind === 'xml') return response.body;
    if (isGzipped(response.body)) {
      const maxSize = this.crawler?.settings.getInt('DOWNLOAD_MAXSIZE') ?? 0;
      try {
        return gunzip(response.body, maxSize);
      } catch (error) {
        if (!(error instanceof GunzipSizeError)) throw error;
        (this.crawler?.logBus ?? defaultLogBus).getLogger('seine.spiders.sitemap').warning(`${response} body is larger than DOWNLOAD_MAXSIZE (${maxSize} bytes) once decompressed: ignored`);
        return null;
      }
    }
    if (response.url.endsWith('.xml') || response.url.endsWith('.xml.gz')) return response.body;
    return null;
  }

  /** `sitemapRules` and `sitemapFollow` as regular expressions and functions, once. */
  protected compiledSitemapRules(): CompiledSitemapRules {
    return (this.#compiled ??= {
      rules: this.sitemapRules.map(([pattern, callback], index) => ({
        pattern: this.#pattern(pattern, `sitemapRules[${index}]`),
        callback: this.#callback(callback, index),
      })),
      follow: this.sitemapFollow.map((pattern, index) => this.#pattern(pattern, `sitemapFollow[${index}]`)),
    });
  }

  #pattern(pattern: string | RegExp, where: string): RegExp {
    if (typeof pattern !== 'string') return pattern;
    try {
      return new RegExp(pattern);
    } catch (error) {
      throw new SpiderDefinitionError(
        `${spiderClassName(this.constructor)}.${where}: '${pattern}' is not a valid regular expression (${(error as Error).message})`,
      );
    }
  }

  // Scrapy fails with a bare AttributeError when a rule names a missing method; seine names the rule and the fix.
  #callback(callback: string | Callback, index: number): Callback {
    if (typeof callback !== 'string') return callback;
    const method = (this as unknown as Record<string, unknown>)[callback];
    if (typeof method !== 'function') {
      const cls = spiderClassName(this.constructor);
      throw new SpiderDefinitionError(
        `${cls}.sitemapRules[${index}]: callback '${callback}' is not a method of ${cls}: define ${callback}() on the spider, or pass the function itself`,
      );
    }
    return method as Callback;
  }
}

/** Each entry's `loc`, and its alternates when asked for (Scrapy's `iterloc`). */
function* locations(entries: Iterable<SitemapEntry>, alternates: boolean): Generator<string> {
  for (const entry of entries) {
    yield entry.loc;
    if (alternates && entry.alternate !== undefined) yield* entry.alternate;
  }
}
