import { Headers, type HeadersInit } from './headers.js';
import { InvalidUrlError } from './http-errors.js';
import type { Response } from './response.js';

/** What a callback may give back: items (plain objects) and Requests, in any of the forms INTERFACE.md lists. */
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

// Callbacks are called with `this` bound to the spider; `any` for `this` keeps spider subclasses assignable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Callback = (this: any, response: Response, kwargs: Record<string, unknown>) => CallbackResult;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Errback = (this: any, error: Error, request: Request) => CallbackResult;

export interface RequestOptions {
  callback?: Callback | null;
  errback?: Errback | null;
  method?: string;
  headers?: HeadersInit;
  body?: string | Buffer | Uint8Array | null;
  meta?: Record<string, unknown>;
  cbKwargs?: Record<string, unknown>;
  priority?: number;
  dontFilter?: boolean;
  flags?: string[];
}

const REQUEST_BRAND = Symbol.for('seine.Request');

/** True for a seine Request, also one made by another loaded copy of seine. */
export function isRequest(value: unknown): value is Request {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REQUEST_BRAND] === true;
}

/** Percent-encodes what must not stand in a URL (spaces, non-ASCII), as w3lib's safe_url_string does, leaving the rest as written. */
export function safeUrl(url: string): string {
  return url.trim().replace(/[^\x21-\x7e]|["<>\\^`{|}]/gu, (ch) => encodeURIComponent(ch));
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
  readonly meta: Record<string, unknown>;
  readonly cbKwargs: Record<string, unknown>;
  readonly priority: number;
  readonly dontFilter: boolean;
  readonly callback: Callback | null;
  readonly errback: Errback | null;
  readonly flags: string[];

  constructor(url: string, options: RequestOptions = {}) {
    if (typeof url !== 'string') throw new InvalidUrlError(String(url), 'a Request URL must be a string');
    const safe = safeUrl(url);
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(safe)) throw new InvalidUrlError(url, 'Missing scheme in request URL');
    try {
      new URL(safe);
    } catch {
      throw new InvalidUrlError(url, 'Malformed request URL');
    }
    this.url = safe;
    this.method = (options.method ?? 'GET').toUpperCase();
    this.headers = new Headers(options.headers);
    const body = options.body ?? '';
    this.body = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
    this.meta = { ...options.meta };
    this.cbKwargs = { ...options.cbKwargs };
    this.priority = options.priority ?? 0;
    this.dontFilter = options.dontFilter ?? false;
    this.callback = options.callback ?? null;
    this.errback = options.errback ?? null;
    this.flags = [...(options.flags ?? [])];
  }

  /** A copy with the given fields replaced (`request.replace({ method: 'POST' })`). */
  replace(changes: RequestOptions & { url?: string } = {}): Request {
    return new Request(changes.url ?? this.url, {
      callback: this.callback,
      errback: this.errback,
      method: this.method,
      headers: this.headers,
      body: this.body,
      meta: this.meta,
      cbKwargs: this.cbKwargs,
      priority: this.priority,
      dontFilter: this.dontFilter,
      flags: this.flags,
      ...changes,
    });
  }

  /** `<GET http://…>`, as in Scrapy's logs. */
  toString(): string {
    return `<${this.method} ${this.url}>`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}
Object.defineProperty(Request.prototype, REQUEST_BRAND, { value: true });
