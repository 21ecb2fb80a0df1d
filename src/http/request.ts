import { curlToRequestFields, requestToCurl, type FromCurlOptions } from './curl.js';
import { Headers, type HeadersInit } from './headers.js';
import { InvalidUrlError } from './http-errors.js';
import type { Response } from './response.js';
import { encodingName } from './text-decoding.js';
import { UnencodableError, encodeBinary } from './url/encode-text.js';
import { escapeAjax, isPlainUrl, safeUrlString } from './url/safe-url-string.js';
import { UrlSplitError } from '../python/urlsplit.js';
import type { RequestMeta } from './request-meta.js';
import { blameCaller } from '../errors/caller-stack.js';
import { maskUrlCredentials } from '../url-credentials.js';

/** What a callback may give back: items (plain objects) and Requests, in any of the forms docs/spiders.md lists. */
export type Item = Record<string, unknown> | object;
export type CallbackOutput = Item | Request;
export type CallbackResult =
  | void
  | undefined
  | null
  | CallbackOutput
  | Iterable<CallbackOutput>
  | AsyncIterable<CallbackOutput>
  | Promise<unknown>
  | { subscribe: (...args: never[]) => unknown };

// Callbacks are called with `this` bound to the spider; `any` for `this` keeps spider subclasses assignable, and
// `any` for the keyword arguments lets a callback type them (`parseDetail(response, { page }: { page: number })`):
// they are whatever `cbKwargs` the request carries, which the type system cannot tie to the callback.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Callback = (this: any, response: Response, kwargs: any) => CallbackResult;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Errback = (this: any, error: Error, request: Request) => CallbackResult;

/** A cookie to send with one request (Scrapy's `cookies=` list form); a plain `{ name: value }` object is the short form. */
export interface RequestCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  secure?: boolean;
}
export type RequestCookies = Record<string, string> | readonly RequestCookie[];

export interface RequestOptions {
  callback?: Callback | null;
  errback?: Errback | null;
  /** Upper-cased; default 'GET'. */
  method?: string;
  headers?: HeadersInit;
  /** A string is encoded with `encoding`. */
  body?: string | Buffer | Uint8Array | null;
  /** Cookies for this request only (the cookies middleware merges them into the jar). */
  cookies?: RequestCookies;
  meta?: RequestMeta;
  cbKwargs?: Record<string, unknown>;
  /** Higher runs earlier; an integer, default 0. */
  priority?: number;
  /** Skip the duplicate filter (start URLs have it). */
  dontFilter?: boolean;
  flags?: string[];
  /** Encoding of a string body and of the URL's query and fragment (Scrapy's `encoding`); default 'utf-8'. `response.follow()` passes the page's. */
  encoding?: string;
}

const REQUEST_BRAND = Symbol.for('seine.Request');

// RequestOptions' keys: any other is a mistake the type checker would catch, but seine runs spiders untyped
// (transpiled only), so the constructor says it, as Python says it of an unexpected keyword argument.
// Written as an object the compiler checks against RequestOptions, so a new option cannot be left out and refused.
const OPTION_NAMES: ReadonlySet<string> = new Set(Object.keys({
  callback: true, errback: true, method: true, headers: true, body: true, cookies: true, meta: true, cbKwargs: true,
  priority: true, dontFilter: true, flags: true, encoding: true,
} satisfies Record<keyof RequestOptions, true>));

/**
 * The TypeError for an option Request does not take; Scrapy's snake_case spellings get seine's. Its stack
 * starts at the line that made the Request (caller-stack.ts), which the "Spider error processing" log shows.
 */
function unknownOption(key: string): TypeError {
  const camel = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const hint = camel !== key && OPTION_NAMES.has(camel) ? `seine spells it ${camel}` : `the options are ${[...OPTION_NAMES].join(', ')}`;
  const error = new TypeError(`Unknown Request option '${key}': ${hint}`);
  // blameCaller keeps the frames below the function it is given, which must be on the stack: Request's constructor.
  blameCaller(error, Request as unknown as typeof TypeError);
  return error;
}
// Shared by every body-less request (most of them): a zero-length Buffer cannot be changed.
const EMPTY = Buffer.alloc(0);

/** True for a seine Request, also one made by another loaded copy of seine. */
export function isRequest(value: unknown): value is Request {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REQUEST_BRAND] === true;
}

/**
 * Percent-encodes what must not stand in a URL (spaces, non-ASCII), as w3lib's
 * safe_url_string does, leaving what is escaped already as written. Works on
 * relative URLs too and never throws (a URL Python could not split is only
 * stripped of the characters that must go).
 */
export function safeUrl(url: string, encoding = 'utf-8'): string {
  try {
    return safeUrlString(url, encoding);
  } catch {
    const escaped = url.trim().replace(/[^\x21-\x7e]|["<>\\^`{|}]/gu, percentEncodeUtf8);
    // Escaping can make a URL splittable (a non-ASCII host that Python refused under NFKC, `http://℀.com#`):
    // then safeUrlString's form, so that safeUrl(safeUrl(u)) === safeUrl(u) (spec/fuzz/http-url.spec.ts).
    try {
      return safeUrlString(escaped, encoding);
    } catch {
      return escaped;
    }
  }
}

/** `%XX` for each UTF-8 byte; a lone surrogate as U+FFFD's bytes, as safeUrlString writes it (encodeURIComponent throws on it). */
function percentEncodeUtf8(ch: string): string {
  let out = '';
  for (const byte of Buffer.from(ch, 'utf8')) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  return out;
}

const MISSING_SCHEME_HINT = "write an absolute URL such as 'https://example.com/page', or use response.follow() to join a link to the page's URL";
// A host, as written without a scheme: an IPv4 address, localhost, `www.` or any name with a port (`127.0.0.1:8765/`, `localhost:8000`).
const SCHEMELESS_HOST = /^(?:(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?|localhost(?::\d+)?|www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?|[a-z0-9-]+(?:\.[a-z0-9-]+)*:\d+)(?=[/?#]|$)/i;
// Schemes of links that name no document to download (Scrapy fails on them with the same "Missing scheme").
const LINK_ONLY_SCHEME = /^(mailto|javascript|tel|sms|callto|skype|whatsapp|geo|magnet|news|urn|blob):/i;

/** What to do about a URL without `://`: the http:// URL meant for a bare host, leaving out mailto: and the like, else write it absolute. */
function missingSchemeHint(safe: string): string {
  if (SCHEMELESS_HOST.test(safe) && URL.canParse(`http://${safe}`)) return `did you mean 'http://${safe}'?`;
  const linkOnly = LINK_ONLY_SCHEME.exec(safe);
  if (linkOnly !== null) return `'${linkOnly[1]!.toLowerCase()}:' URLs have nothing to download: leave such links out`;
  return MISSING_SCHEME_HINT;
}

/** The URL a Request keeps: safe_url_string + escape_ajax as in Scrapy 2.8, and sure to parse as a WHATWG URL. */
function requestUrl(url: string, encoding: string): string {
  if (isPlainUrl(url)) return url;
  let safe: string;
  try {
    safe = escapeAjax(safeUrlString(url, encoding));
  } catch (error) {
    if (error instanceof UrlSplitError) {
      throw new InvalidUrlError(url, `${error.message} in request url: ${url} (fix the URL, or skip the link)`);
    }
    if (error instanceof UnencodableError) {
      throw InvalidUrlError.unencodable(url, error.character, error.encoding);
    }
    throw error;
  }
  if (!safe.includes('://') && !safe.startsWith('about:') && !safe.startsWith('data:')) {
    throw new InvalidUrlError(url, `Missing scheme in request url: ${safe} (${missingSchemeHint(safe)})`);
  }
  // Scrapy would accept e.g. `http://exa mple.com/` and fail at download time; seine refuses it here so
  // every stage can rely on `new URL(request.url)`.
  if (!URL.canParse(safe)) {
    throw new InvalidUrlError(url, `Malformed request url: ${safe} (not a URL by the URL standard: check the host and port)`);
  }
  return safe;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * A request to download, with what to do with its response. Immutable in
 * spirit: `replace()` makes a changed copy, as Scrapy's does.
 */
export class Request {
  declare readonly [REQUEST_BRAND]: true;
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: Buffer;
  readonly cookies: RequestCookies;
  readonly meta: RequestMeta;
  readonly cbKwargs: Record<string, unknown>;
  readonly priority: number;
  readonly dontFilter: boolean;
  readonly callback: Callback | null;
  readonly errback: Errback | null;
  readonly flags: string[];
  /** The WHATWG name of the request's encoding ('utf-8' unless given). */
  readonly encoding: string;

  constructor(url: string, options: RequestOptions = {}) {
    if (typeof url !== 'string') throw new TypeError(`Request url must be a string, got ${typeName(url)}`);
    for (const key in options) if (!OPTION_NAMES.has(key)) throw unknownOption(key);
    const encoding = options.encoding === undefined ? 'utf-8' : encodingName(options.encoding);
    if (encoding === null) throw new TypeError(`Unknown encoding for Request: '${String(options.encoding)}' (use a WHATWG encoding label such as 'utf-8' or 'windows-1252')`);
    this.encoding = encoding;
    this.url = requestUrl(url, encoding);
    this.method = String(options.method ?? 'GET').toUpperCase();
    const priority = options.priority ?? 0;
    if (!Number.isInteger(priority)) throw new TypeError(`Request priority not an integer: ${String(priority)}`);
    this.priority = priority;
    const { callback = null, errback = null } = options;
    if (callback !== null && typeof callback !== 'function') throw new TypeError(`callback must be a function, got ${typeName(callback)}`);
    if (errback !== null && typeof errback !== 'function') throw new TypeError(`errback must be a function, got ${typeName(errback)}`);
    this.callback = callback;
    this.errback = errback;
    this.headers = new Headers(options.headers);
    const body = options.body ?? null;
    if (body === null) this.body = EMPTY;
    else if (typeof body === 'string') this.body = encoding === 'utf-8' ? Buffer.from(body, 'utf8') : Buffer.from(encodeBinary(body, encoding), 'latin1');
    else this.body = Buffer.from(body);
    this.cookies = options.cookies ?? {};
    this.meta = { ...options.meta };
    this.cbKwargs = { ...options.cbKwargs };
    this.dontFilter = options.dontFilter ?? false;
    this.flags = [...(options.flags ?? [])];
  }

  /**
   * A copy with the given fields replaced (`request.replace({ method: 'POST' })`); meta and cbKwargs are copied, not
   * shared. The copy is of the same class (a JsonRequest stays one), made through its constructor.
   */
  replace({ url, ...changes }: RequestOptions & { url?: string } = {}): Request {
    const Same = this.constructor as new (url: string, options: RequestOptions) => Request;
    return new Same(url ?? this.url, {
      callback: this.callback,
      errback: this.errback,
      method: this.method,
      headers: this.headers,
      body: this.body,
      cookies: this.cookies,
      meta: this.meta,
      cbKwargs: this.cbKwargs,
      priority: this.priority,
      dontFilter: this.dontFilter,
      flags: this.flags,
      encoding: this.encoding,
      ...changes,
    });
  }

  /**
   * A request from a curl command, as browsers' developer tools copy it
   * ("Copy as cURL"): method, URL, headers, cookies, body (Scrapy's
   * `Request.from_curl`). `options` are Request options laid over it
   * (`callback`, `meta`…). An option seine does not read is a warning, or a
   * CurlError with `ignoreUnknownOptions: false`.
   */
  static fromCurl(command: string, options: RequestOptions & FromCurlOptions = {}): Request {
    const { ignoreUnknownOptions, ...requestOptions } = options;
    const fields = curlToRequestFields(command, { ignoreUnknownOptions });
    return new this(fields.url, {
      method: fields.method,
      headers: fields.headers,
      body: fields.body,
      ...(Object.keys(fields.cookies).length > 0 ? { cookies: fields.cookies } : {}),
      ...requestOptions,
    });
  }

  /** The request as a curl command (method, URL, headers, cookies, body), to replay it in a terminal. */
  toCurl(): string {
    return requestToCurl(this);
  }

  /** `<GET http://…>`, as in Scrapy's logs, with a password in the URL masked (`user:***@`). */
  toString(): string {
    return `<${this.method} ${maskUrlCredentials(this.url)}>`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}
Object.defineProperty(Request.prototype, REQUEST_BRAND, { value: true });
