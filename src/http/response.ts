import { Headers, type HeadersInit } from './headers.js';
import { Request, isRequest, type Callback, type RequestOptions } from './request.js';
import { Selector, SelectorList, isSelector } from '../selector/index.js';
import { decodeBody, responseKind, type ResponseKind } from './decode-body.js';

export interface ResponseOptions {
  url: string;
  status?: number;
  headers?: HeadersInit;
  body?: Buffer | string;
  request?: Request | null;
  flags?: string[];
  ip?: string | null;
  protocol?: string | null;
}

/** What `follow()` accepts: a URL or href, or a Selector of an `<a>`/`<link>` element or of an attribute. */
export type FollowTarget = string | Selector;
export type FollowOptions = Omit<RequestOptions, 'callback'> & { callback?: Callback | null };
export interface FollowAllQuery {
  css?: string;
  xpath?: string;
}

/**
 * A downloaded response. Text is decoded lazily by the WHATWG rules (BOM,
 * Content-Type charset, `<meta charset>`, then UTF-8), and the document is
 * parsed lazily on the first `css()`/`xpath()`.
 */
export class Response {
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
  readonly request: Request | null;
  readonly flags: string[];
  readonly ip: string | null;
  readonly protocol: string | null;
  #text: string | undefined;
  #encoding: string | undefined;
  #selector: Selector | undefined;
  #kind: ResponseKind | undefined;

  constructor(options: ResponseOptions) {
    this.url = options.url;
    this.status = options.status ?? 200;
    this.headers = new Headers(options.headers);
    const body = options.body ?? Buffer.alloc(0);
    this.body = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.request = options.request ?? null;
    this.flags = [...(options.flags ?? [])];
    this.ip = options.ip ?? null;
    this.protocol = options.protocol ?? null;
  }

  /** The request's meta (Scrapy's `response.meta`). */
  get meta(): Record<string, unknown> {
    if (this.request === null) throw new TypeError('This response has no request, so it has no meta');
    return this.request.meta;
  }

  /** 'html', 'xml', 'text' or 'binary', from Content-Type and, without one, from the body. */
  get kind(): ResponseKind {
    return (this.#kind ??= responseKind(this.headers.get('content-type'), this.body, this.url));
  }

  /** The body decoded to a string (the encoding is in `encoding`). */
  get text(): string {
    if (this.#text === undefined) {
      const decoded = decodeBody(this.body, this.headers.get('content-type'));
      this.#text = decoded.text;
      this.#encoding = decoded.encoding;
    }
    return this.#text;
  }

  /** The character encoding the text was decoded with (a WHATWG encoding name). */
  get encoding(): string {
    void this.text;
    return this.#encoding!;
  }

  get selector(): Selector {
    if (this.kind === 'binary') throw new TypeError(`Response content isn't text: ${this.url} (${this.headers.get('content-type') ?? 'no Content-Type'})`);
    return (this.#selector ??= new Selector({ text: this.text, type: this.kind === 'xml' ? 'xml' : 'html' }));
  }

  css(query: string): SelectorList {
    return this.selector.css(query);
  }

  xpath(query: string, variables?: Record<string, string | number | boolean>): SelectorList {
    return this.selector.xpath(query, variables);
  }

  json(): unknown {
    return JSON.parse(this.text);
  }

  /** The base for relative links: the document's `<base href>` when it has one, else the response URL. */
  get baseUrl(): string {
    if (this.kind === 'html') {
      const base = this.selector.xpath('//base/@href').get();
      if (base !== null) return new URL(base.trim(), this.url).href;
    }
    return this.url;
  }

  urljoin(href: string): string {
    return new URL(href.trim(), this.kind === 'html' ? this.baseUrl : this.url).href;
  }

  /** A Request for a link: an href (relative or absolute), or a Selector of `<a>`/`<link>` or of an attribute. */
  follow(target: FollowTarget, callbackOrOptions?: Callback | FollowOptions | null): Request {
    const options: FollowOptions = typeof callbackOrOptions === 'function' || callbackOrOptions === null || callbackOrOptions === undefined
      ? { callback: callbackOrOptions ?? null }
      : callbackOrOptions;
    return new Request(this.urljoin(hrefOf(target)), options);
  }

  /** Requests for many links: hrefs, Selectors, a SelectorList, or `{ css }` / `{ xpath }` on this response. */
  followAll(targets: Iterable<FollowTarget> | FollowAllQuery, callbackOrOptions?: Callback | FollowOptions | null): Request[] {
    let list: Iterable<FollowTarget>;
    if (isFollowAllQuery(targets)) {
      if (targets.css !== undefined) list = this.css(targets.css);
      else if (targets.xpath !== undefined) list = this.xpath(targets.xpath);
      else throw new TypeError('followAll() needs urls, or { css } or { xpath }');
    } else {
      list = targets;
    }
    const out: Request[] = [];
    for (const target of list) out.push(this.follow(target, callbackOrOptions));
    return out;
  }

  replace(changes: Partial<ResponseOptions> = {}): Response {
    return new Response({
      url: this.url, status: this.status, headers: this.headers, body: this.body, request: this.request,
      flags: this.flags, ip: this.ip, protocol: this.protocol, ...changes,
    });
  }

  /** `<200 http://…>`, as in Scrapy's logs. */
  toString(): string {
    return `<${this.status} ${this.url}>`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

function isFollowAllQuery(value: unknown): value is FollowAllQuery {
  return typeof value === 'object' && value !== null && !isSelector(value) && !(Symbol.iterator in value);
}

/** parsel/Scrapy rules: an element selector gives its href (for `a`/`link`), an attribute or text selector its value. */
function hrefOf(target: FollowTarget): string {
  if (typeof target === 'string') return target;
  if (isSelector(target)) {
    const root = target.root;
    if (typeof root === 'object' && root.kind === 1) {
      if (root.name === 'a' || root.name === 'link') {
        const href = root.getAttr('href');
        if (href !== null) return href;
      }
      throw new TypeError(`Only <a> and <link> elements can be followed, got <${root.name}>: select the attribute, e.g. ::attr(href)`);
    }
    return target.get();
  }
  if (isRequest(target)) return (target as Request).url;
  throw new TypeError(`Cannot follow ${String(target)}: give a URL string or a Selector`);
}
