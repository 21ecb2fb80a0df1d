import { lazyPackage } from '../../errors/lazy-package.js';
import type { CookieJar } from 'tough-cookie';
import type { DownloaderMiddleware } from '../../contracts/components.js';
import { NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler } from '../../contracts/crawler.js';
import type { Request, RequestCookie } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { defaultLogBus, type Logger } from '../../log/index.js';
import type { Spider } from '../../contracts/spider.js';
import type { ComponentOptions } from '../spider/component-options.js';

export interface CookiesOptions extends ComponentOptions {
  /** COOKIES_DEBUG: log every Cookie sent and Set-Cookie received at DEBUG. */
  debug?: boolean;
}

/** Where a request records which part of its Cookie header came from its author (see #givenCookies). */
const COOKIE_HEADER_META = '_cookie_header';

interface CookieHeaderRecord {
  /** The Cookie header this middleware set. */
  sent: string;
  /** The cookies the request came with, before the jar's were added. */
  given: string[];
}

function isCookieHeaderRecord(value: unknown): value is CookieHeaderRecord {
  return typeof value === 'object' && value !== null && typeof (value as CookieHeaderRecord).sent === 'string' && Array.isArray((value as CookieHeaderRecord).given);
}

/** A flat object as Python prints a dict, for Scrapy's warning text: `{'name': 'a', 'value': None}`. */
function pythonRepr(value: object): string {
  const items = Object.entries(value).map(([key, item]) => {
    const shown = item === null || item === undefined ? 'None' : typeof item === 'string' ? `'${item}'` : typeof item === 'boolean' ? (item ? 'True' : 'False') : String(item);
    return `'${key}': ${shown}`;
  });
  return `{${items.join(', ')}}`;
}

/** The cookie names of `name=value; name2=value2` header values. */
function cookieNames(values: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const value of values) {
    for (const pair of value.split(';')) {
      const name = pair.split('=', 1)[0]!.trim();
      if (name !== '') names.add(name);
    }
  }
  return names;
}

/**
 * Keeps cookies per spider as a browser does (Scrapy's CookiesMiddleware,
 * with tough-cookie for the RFC 6265 rules): Set-Cookie headers of responses
 * and a request's `cookies` go into a jar, and each request gets the jar's
 * cookies for its URL. One jar per `meta.cookiejar` key (a spider can hold several sessions); requests
 * with `meta.dont_merge_cookies` are left alone both ways. Cookies a request
 * was given in its own `Cookie` header are kept and win over the jar's of the
 * same name (Scrapy 2.8 dropped them). COOKIES_ENABLED=false switches it off;
 * COOKIES_DEBUG logs `Sending cookies to: <GET url>` / `Received cookies
 * from: <200 url>` with the headers, at DEBUG.
 */
/**
 * tough-cookie (with its public-suffix list), loaded by the first jar: ~45 ms and a few MB a crawl that
 * sends no request never pays (`seine runspider` of a spider that yields nothing, `seine check -l`).
 * Its CommonJS build; seine imports tough-cookie nowhere else, so there is one copy.
 */
const toughCookie = lazyPackage<typeof import('tough-cookie')>('tough-cookie', 'cookies');
function newCookieJar(): CookieJar {
  return new (toughCookie().CookieJar)();
}

/** The CookiesMiddleware each crawler built, for the session pool (src/sessions/), which keeps a jar per session here. */
const builtFor = new WeakMap<object, CookiesMiddleware>();

export class CookiesMiddleware implements DownloaderMiddleware {
  readonly debug: boolean;
  readonly #jars = new Map<unknown, CookieJar>();
  /**
   * Jars that may hold a cookie: given one by a request or a response,
   * restored, or handed out by `jar()` (its caller may add some). A jar not
   * here is empty, and a request needs no lookup in it: on a site that sets
   * no cookie, tough-cookie's getCookies was ~1.6 % of a page's CPU.
   */
  readonly #filled = new WeakSet<CookieJar>();
  readonly #logger: Logger;

  constructor(options: CookiesOptions = {}) {
    this.debug = options.debug ?? false;
    this.#logger = (options.logBus ?? defaultLogBus).getLogger('seine.downloadermiddlewares.cookies');
  }

  static fromCrawler(crawler: Crawler): CookiesMiddleware {
    const { settings } = crawler;
    if (!settings.getBool('COOKIES_ENABLED')) throw new NotConfigured('COOKIES_ENABLED is off');
    const middleware = new CookiesMiddleware({ debug: settings.getBool('COOKIES_DEBUG'), logBus: crawler.logBus });
    builtFor.set(crawler, middleware);
    return middleware;
  }

  /** The instance fromCrawler built for `crawler`, or null (COOKIES_ENABLED off, or replaced): the session pool's jars live here. */
  static of(crawler: object): CookiesMiddleware | null {
    return builtFor.get(crawler) ?? null;
  }

  /** Forgets the jar of a `meta.cookiejar` key (a retired session's cookies go with it). */
  dropJar(key: unknown): void {
    this.#jars.delete(key === undefined ? null : key);
  }

  /** The jar of `key` as tough-cookie serializes it (JSON-safe), or null when that key has no jar. */
  exportJar(key: unknown): object | null {
    return this.#jars.get(key === undefined ? null : key)?.serializeSync() ?? null;
  }

  /** Replaces the jar of `key` with one exportJar gave (a session restored from JOBDIR). */
  importJar(key: unknown, serialized: object): void {
    const jar = toughCookie().CookieJar.deserializeSync(serialized as never);
    this.#filled.add(jar);
    this.#jars.set(key === undefined ? null : key, jar);
  }

  /** The jar for a `meta.cookiejar` key (created empty on first use); `null` is the default jar. */
  jar(key: unknown = null): CookieJar {
    const jar = this.#jarOf(key);
    this.#filled.add(jar);
    return jar;
  }

  #jarOf(key: unknown): CookieJar {
    const normalized = key === undefined ? null : key;
    let jar = this.#jars.get(normalized);
    if (jar === undefined) {
      jar = newCookieJar();
      this.#jars.set(normalized, jar);
    }
    return jar;
  }

  processRequest(request: Request, spider: Spider): void {
    if (request.meta.dont_merge_cookies) return;
    const key = request.meta.cookiejar;
    const lines = this.#requestCookies(request);
    // No jar yet and nothing to put in one: none is made (nor tough-cookie loaded, ~7 MB) for a site that sets no cookie.
    const jar = lines.length > 0 ? this.#jarOf(key) : this.#jars.get(key === undefined ? null : key);
    for (const setCookie of lines) jar!.setCookieSync(setCookie, request.url, { ignoreError: true, loose: true });
    if (jar !== undefined && lines.length > 0) this.#filled.add(jar);
    const given = this.#givenCookies(request);
    const givenNames = cookieNames(given);
    const fromJar = jar === undefined || !this.#filled.has(jar)
      ? []
      : jar
          .getCookiesSync(request.url)
          .filter((cookie) => !givenNames.has(cookie.key))
          .map((cookie) => cookie.cookieString());
    const header = [...given, ...fromJar].join('; ');
    if (header === '') request.headers.delete('Cookie');
    else request.headers.set('Cookie', header);
    request.meta[COOKIE_HEADER_META] = { sent: header, given } satisfies CookieHeaderRecord;
    if (this.debug && header !== '') this.#logger.debug(`Sending cookies to: ${request.toString()}\nCookie: ${header}\n`, { spider });
  }

  processResponse(request: Request, response: Response, spider: Spider): Response {
    if (request.meta.dont_merge_cookies) return response;
    const setCookies = response.headers.getList('Set-Cookie');
    if (setCookies.length > 0) {
      const jar = this.#jarOf(request.meta.cookiejar);
      // Invalid cookies (bad domain, public suffix, malformed) are skipped silently, as browsers and Scrapy do.
      for (const setCookie of setCookies) jar.setCookieSync(setCookie, request.url, { ignoreError: true, loose: true });
      this.#filled.add(jar);
    }
    if (this.debug && setCookies.length > 0) {
      const lines = setCookies.map((value) => `Set-Cookie: ${value}\n`).join('\n');
      this.#logger.debug(`Received cookies from: ${response.toString()}\n${lines}`, { spider });
    }
    return response;
  }

  /**
   * The request's `cookies` as Set-Cookie lines for the jar (Scrapy's
   * _get_request_cookies): they are stored, so later requests to the site
   * send them too. A cookie without name or value is skipped with a warning.
   */
  #requestCookies(request: Request): string[] {
    const { cookies } = request;
    const list: Array<Partial<RequestCookie>> = Array.isArray(cookies)
      ? (cookies as Array<Partial<RequestCookie>>)
      : Object.entries(cookies as Record<string, string>).map(([name, value]) => ({ name, value }));
    const lines: string[] = [];
    for (const cookie of list) {
      const missing = cookie.name === undefined || cookie.name === null ? 'name' : cookie.value === undefined || cookie.value === null ? 'value' : null;
      if (missing !== null) {
        this.#logger.warning(`Invalid cookie found in request ${request.toString()}: ${pythonRepr(cookie)} ('${missing}' is missing)`);
        continue;
      }
      let line = `${String(cookie.name)}=${String(cookie.value)}`;
      if (cookie.path !== undefined && cookie.path !== null) line += `; Path=${String(cookie.path)}`;
      if (cookie.domain !== undefined && cookie.domain !== null) line += `; Domain=${String(cookie.domain)}`;
      // Scrapy ignores `secure`; honouring it keeps such a cookie off plain-http requests, as the site meant.
      if (cookie.secure === true) line += '; Secure';
      lines.push(line);
    }
    return lines;
  }

  /**
   * The cookies the request's author gave in its Cookie header. A request
   * that passed here before (a retry, a same-site redirect) still carries the
   * header this middleware set; then only the part it was given counts, so
   * the jar's cookies are read afresh. A header that changed since (dropped
   * on a cross-site redirect, replaced by user code) is taken as given.
   */
  #givenCookies(request: Request): string[] {
    const current = request.headers.getList('Cookie');
    const record = request.meta[COOKIE_HEADER_META];
    if (isCookieHeaderRecord(record) && current.join('; ') === record.sent) return [...record.given];
    return current;
  }
}
