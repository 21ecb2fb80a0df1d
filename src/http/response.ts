import { Headers, type HeadersInit } from './headers.js';
import { DetachedResponseError, InvalidUrlError, NotTextResponseError } from './http-errors.js';
import { Request, type Callback, type RequestOptions } from './request.js';
import { Selector, SelectorList } from '../selector/index.js';
import { decodeBody, detectEncoding } from './decode-body.js';
import { MAX_TEXT_LENGTH, assertDecodable } from './text-limit.js';
import { responseKind, type ResponseKind } from './response-kind.js';
import { baseHref, joinUrl } from './urljoin.js';
import { linkOf, linksOfList, type FollowTarget } from './follow-target.js';
import { encodingName } from './text-decoding.js';
import { encodeBinary } from './url/encode-text.js';
import { defaultLogBus } from '../log/log-bus.js';
import { maskUrlCredentials } from '../url-credentials.js';

export type { FollowTarget } from './follow-target.js';

export interface ResponseOptions {
  url: string;
  status?: number;
  headers?: HeadersInit;
  /** Bytes as received; a string is encoded with `encoding` (UTF-8 by default). */
  body?: Buffer | Uint8Array | string;
  request?: Request | null;
  flags?: string[];
  ip?: string | null;
  protocol?: string | null;
  /** The body's encoding when known (Scrapy's TextResponse `encoding`); it wins over Content-Type and `<meta>`, not over a BOM. */
  encoding?: string | null;
  /** The body streamed to a temporary file instead of `body` (a media download, docs/media.md); `body` is then empty. */
  bodyFile?: BodyFile | null;
}

/**
 * A body the HTTP download handler wrote to a temporary file (0600) as it
 * arrived, for requests that ask for it (`meta.body_to_file`: the media
 * pipelines), with its size and MD5 computed on the way. Whoever consumes
 * the response removes the file.
 */
export interface BodyFile {
  readonly path: string;
  readonly size: number;
  /** MD5 of the bytes, hex. */
  readonly md5: string;
}

/** Request options for `follow()`; `callback` may also be given alone as the second argument. */
export type FollowOptions = RequestOptions;

/** `followAll()`'s query form: the links of `css` or `xpath` on this response, with request options alongside. */
export type FollowAllQuery = ({ css: string; xpath?: undefined } | { xpath: string; css?: undefined }) & FollowOptions;

const EMPTY = Buffer.alloc(0);

/** follow()'s second and third arguments as one set of options: `(callback)`, `(options)` or `(callback, options)`. */
function optionsOf(callbackOrOptions: Callback | FollowOptions | null | undefined, more?: FollowOptions): FollowOptions {
  // A literal, not a spread, for the common `follow(href, this.parse)`: spread copies have shapes of their own, and
  // Request's constructor, reading options of many shapes, was ~3 µs a link slower (measured on the crawl benchmark).
  if (typeof callbackOrOptions === 'function') return more === undefined ? { callback: callbackOrOptions } : { ...more, callback: callbackOrOptions };
  return { ...callbackOrOptions, ...more };
}

function isQuery(value: unknown): value is FollowAllQuery {
  if (typeof value !== 'object' || value === null || Symbol.iterator in value) return false;
  const { css, xpath } = value as { css?: unknown; xpath?: unknown };
  return typeof css === 'string' || typeof xpath === 'string';
}

const RESPONSE_BRAND = Symbol.for('seine.Response');

/** True for a seine Response, also one made by another loaded copy of seine (a brand, as isRequest). */
export function isResponse(value: unknown): value is Response {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RESPONSE_BRAND] === true;
}

/**
 * Drops the response's parsed document (the Selector that `css()`, `xpath()`
 * and `selector` share); the next use parses the body again. The engine
 * calls it when a callback and its outputs are done (src/engine/scrape.ts).
 */
export let releaseDocument: (response: Response) => void;

/** What followAll() does with a link no Request can be made from, instead of failing the whole call. */
export type InvalidLinkHandler = (response: Response, link: string, error: InvalidUrlError) => void;

/**
 * Makes `handler` take the invalid links of `response`'s followAll(). The
 * spider sets it on every response its crawl receives (Spider.crawler), so
 * such a link is logged and counted in that crawl.
 */
export let setInvalidLinkHandler: (response: Response, handler: InvalidLinkHandler) => void;

/** `Ignoring link 'href' on <200 page>: why`, the line of a link skipped because no Request can be made from it. */
export function invalidLinkMessage(response: Response, link: string, error: InvalidUrlError): string {
  return `Ignoring link '${link}' on ${response.toString()}: ${error.message}`;
}

// A response made outside a crawl (by hand, in a test) has no spider to report to: its skipped links go to the process-wide log.
const logInvalidLink: InvalidLinkHandler = (response, link, error) =>
  defaultLogBus.getLogger('seine.http.response').warning(invalidLinkMessage(response, link, error));

/**
 * A downloaded response. Its kind (html, xml, text, binary) comes from
 * Content-Type, the URL and the body as Scrapy decides it; its text is
 * decoded lazily by the WHATWG rules (src/http/decode-body.ts), and the
 * document is parsed lazily on the first `css()` / `xpath()`.
 */
export class Response {
  declare readonly [RESPONSE_BRAND]: true;
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
  /** Where the body is when it was streamed to a file (then `body` is empty); null otherwise. */
  readonly bodyFile: BodyFile | null;
  readonly request: Request | null;
  readonly flags: string[];
  readonly ip: string | null;
  readonly protocol: string | null;
  readonly #explicitEncoding: string | null;
  #text: string | undefined;
  #encoding: string | undefined;
  #selector: Selector | undefined;
  #kind: ResponseKind | undefined;
  #baseUrl: string | undefined;
  #json: { value: unknown } | undefined;
  #onInvalidLink: InvalidLinkHandler | undefined;

  constructor(options: ResponseOptions) {
    if (typeof options?.url !== 'string') throw new TypeError(`Response url must be a string, got ${typeof options?.url}`);
    this.url = options.url;
    const status = options.status ?? 200;
    if (!Number.isInteger(status)) throw new TypeError(`Response status must be an integer, got ${String(status)}`);
    this.status = status;
    this.headers = new Headers(options.headers);
    const explicit = options.encoding == null ? null : encodingName(options.encoding);
    if (options.encoding != null && explicit === null) {
      throw new TypeError(`Unknown encoding for Response: '${options.encoding}' (use a WHATWG encoding label such as 'utf-8' or 'shift_jis')`);
    }
    const body = options.body ?? EMPTY;
    if (typeof body === 'string') {
      // A string has no bytes yet: it is written in the given encoding, and that encoding then is the declared one.
      this.#explicitEncoding = explicit ?? 'utf-8';
      this.body = this.#explicitEncoding === 'utf-8' ? Buffer.from(body, 'utf8') : encodeBody(body, this.#explicitEncoding);
    } else {
      this.#explicitEncoding = explicit;
      this.body = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    }
    this.bodyFile = options.bodyFile ?? null;
    this.request = options.request ?? null;
    this.flags = [...(options.flags ?? [])];
    this.ip = options.ip ?? null;
    this.protocol = options.protocol ?? null;
  }

  /** The request's meta (Scrapy's `response.meta`). */
  get meta(): Record<string, unknown> {
    if (this.request === null) throw new DetachedResponseError('meta', this.toString());
    return this.request.meta;
  }

  /** The request's cbKwargs (Scrapy's `response.cb_kwargs`). */
  get cbKwargs(): Record<string, unknown> {
    if (this.request === null) throw new DetachedResponseError('cbKwargs', this.toString());
    return this.request.cbKwargs;
  }

  /** 'html', 'xml', 'text' or 'binary' (see src/http/response-kind.ts). */
  get kind(): ResponseKind {
    return (this.#kind ??= responseKind(
      { contentType: this.headers.get('content-type'), contentDisposition: this.headers.get('content-disposition') },
      this.body,
      this.url,
    ));
  }

  /** The body decoded to a string (the encoding is in `encoding`). Binary bodies are decoded too, for a look; css() refuses them. */
  get text(): string {
    if (this.#text === undefined) {
      // A body that would decode past V8's longest string fails with a seine error, not V8's RangeError (docs/reliability.md).
      if (this.body.length > MAX_TEXT_LENGTH) assertDecodable(this.url, this.body.length, this.encoding);
      const decoded = decodeBody(this.body, this.headers.get('content-type'), this.#explicitEncoding);
      this.#text = decoded.text;
      this.#encoding = decoded.encoding;
    }
    return this.#text;
  }

  /** The WHATWG name of the encoding `text` is decoded with ('utf-8', 'windows-1252', 'shift_jis', …). */
  get encoding(): string {
    // The same answer decodeBody() gives, without decoding the whole body.
    this.#encoding ??= detectEncoding(this.body, this.headers.get('content-type'), this.#explicitEncoding).encoding;
    return this.#encoding;
  }

  static {
    releaseDocument = (response) => {
      response.#selector = undefined;
    };
    setInvalidLinkHandler = (response, handler) => {
      // A Response of another loaded copy of seine has no such field: its followAll() logs on that copy's process-wide bus.
      if (#onInvalidLink in response) response.#onInvalidLink = handler;
    };
  }

  /** The parsed document (XML for 'xml' responses, HTML otherwise). */
  get selector(): Selector {
    return (this.#selector ??= this.#makeSelector('selector'));
  }

  #makeSelector(method: string): Selector {
    if (this.kind === 'binary') throw new NotTextResponseError(this.url, this.headers.get('content-type'), method);
    return new Selector({ text: this.text, type: this.kind === 'xml' ? 'xml' : 'html' });
  }

  css(query: string): SelectorList {
    return (this.#selector ??= this.#makeSelector('css()')).css(query);
  }

  xpath(query: string, variables?: Record<string, string | number | boolean>): SelectorList {
    return (this.#selector ??= this.#makeSelector('xpath()')).xpath(query, variables);
  }

  /** The body parsed as JSON (parsed once). */
  json(): unknown {
    if (this.#json === undefined) {
      try {
        this.#json = { value: JSON.parse(this.text) as unknown };
      } catch (error) {
        const type = this.headers.get('content-type') ?? 'none';
        throw new SyntaxError(`Response body is not JSON: ${this.toString()} (Content-Type: ${type}): ${(error as Error).message}`, { cause: error });
      }
    }
    return this.#json.value;
  }

  /** The base for relative links: the `<base href>` of a text response (Scrapy reads the first 4,096 characters), else the URL. */
  get baseUrl(): string {
    if (this.#baseUrl === undefined) {
      const href = this.kind === 'binary' ? null : baseHref(this.text);
      this.#baseUrl = href === null ? this.url : joinUrl(href, this.url, 'utf-8');
    }
    return this.#baseUrl;
  }

  /** `href` made absolute against `baseUrl`. On a page in another encoding than UTF-8, non-ASCII in the query is written in the page's encoding, as Scrapy does. */
  urljoin(href: string): string {
    return joinUrl(href, this.baseUrl, this.kind === 'binary' ? 'utf-8' : this.encoding);
  }

  /**
   * A Request for one link: a URL or href (relative to `baseUrl`), a Selector
   * of an `<a>` / `<link>` element or of an attribute or text, or an object
   * with a `url`. Then the callback, or the Request options, or both:
   * `follow(href, this.parseItem, { cbKwargs: { page } })` (Scrapy's
   * keyword arguments after the callback).
   */
  follow(target: FollowTarget, callbackOrOptions?: Callback | FollowOptions | null, options?: FollowOptions): Request {
    return this.#request(linkOf(target), optionsOf(callbackOrOptions, options));
  }

  /**
   * Requests for many links: an iterable of follow() targets, or
   * `{ css }` / `{ xpath }` selecting them on this response. Selectors from
   * a SelectorList (or a query) that carry no link, such as an `<a>` without
   * href, are skipped, as in Scrapy; a plain array of them throws. A link no
   * Request can be made from (`http://exa mple.com/`, `mailto:…`) costs only
   * itself: it is left out, and in a crawl the spider logs it (WARNING
   * `Ignoring link …`) and counts it in `spider/invalid_url`; Scrapy's
   * follow_all fails there and the links after it are lost.
   */
  followAll(targets: Iterable<FollowTarget> | FollowAllQuery, callbackOrOptions?: Callback | FollowOptions | null, moreOptions?: FollowOptions): Request[] {
    let options = optionsOf(callbackOrOptions, moreOptions);
    let links: string[];
    if (isQuery(targets)) {
      const { css, xpath, ...rest } = targets;
      if ((css === undefined) === (xpath === undefined)) {
        throw new TypeError('Please supply exactly one of the following arguments: urls, css, xpath');
      }
      options = { ...rest, ...options };
      links = linksOfList(css !== undefined ? this.css(css) : this.xpath(xpath!));
    } else if (targets instanceof SelectorList) {
      links = linksOfList(targets);
    } else if (targets !== null && typeof targets === 'object' && Symbol.iterator in targets) {
      links = Array.from(targets, linkOf);
    } else {
      throw new TypeError(`followAll() needs an iterable of links, or { css } or { xpath }, got ${String(targets)}`);
    }
    const requests: Request[] = [];
    for (const link of links) {
      try {
        requests.push(this.#request(link, options));
      } catch (error) {
        if (!(error instanceof InvalidUrlError)) throw error;
        (this.#onInvalidLink ?? logInvalidLink)(this, link, error);
      }
    }
    return requests;
  }

  #request(link: string, options: FollowOptions): Request {
    const encoding = options.encoding ?? (this.kind === 'binary' ? undefined : this.encoding);
    // UTF-8 is Request's default: no copy of the options to say it again.
    return new Request(this.urljoin(link), encoding === undefined || (encoding === 'utf-8' && options.encoding === undefined) ? options : { ...options, encoding });
  }

  /** A copy with the given fields replaced. */
  replace(changes: Partial<ResponseOptions> = {}): Response {
    const copy = new Response({
      url: this.url, status: this.status, headers: this.headers, body: this.body, bodyFile: this.bodyFile, request: this.request,
      flags: this.flags, ip: this.ip, protocol: this.protocol, encoding: this.#explicitEncoding, ...changes,
    });
    copy.#onInvalidLink = this.#onInvalidLink; // a copy made in a callback still reports to the crawl's spider
    return copy;
  }

  copy(): Response {
    return this.replace();
  }

  /** `<200 http://…>`, as in Scrapy's logs, with a password in the URL masked (`user:***@`). */
  toString(): string {
    return `<${this.status} ${maskUrlCredentials(this.url)}>`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

Object.defineProperty(Response.prototype, RESPONSE_BRAND, { value: true });

function encodeBody(body: string, encoding: string): Buffer {
  return Buffer.from(encodeBinary(body, encoding), 'latin1');
}
