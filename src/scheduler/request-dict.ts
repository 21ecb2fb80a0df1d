/**
 * Scrapy's request_to_dict / request_from_dict for seine's JOBDIR: a
 * Request as a JSON-safe object, and back. Callbacks and errbacks are
 * stored by the name of the spider method they are; meta, cbKwargs and
 * cookies must be plain JSON values (Scrapy pickles them; JSON keeps the
 * queue readable and safe to load); the body is base64.
 */
import { Request, type Callback, type Errback, type RequestCookies } from '../http/request.js';
import type { Spider } from '../contracts/spider.js';
import { JobdirError, RequestSerializationError } from './jobdir-errors.js';

/** A request as it is written to `requests.queue/` (one JSON object per line). */
export interface RequestDict {
  url: string;
  callback: string | null;
  errback: string | null;
  method: string;
  /** [name, values] pairs, names as first given. */
  headers: Array<[string, string[]]>;
  /** base64 */
  body: string;
  cookies: RequestCookies;
  meta: Record<string, unknown>;
  cbKwargs: Record<string, unknown>;
  priority: number;
  dontFilter: boolean;
  flags: string[];
  encoding: string;
}

/** The request as a JSON-safe object; RequestSerializationError when a part cannot be stored. */
export function requestToDict(request: Request, spider: Spider): RequestDict {
  return {
    url: request.url,
    callback: request.callback === null ? null : methodName(spider, request.callback),
    errback: request.errback === null ? null : methodName(spider, request.errback),
    method: request.method,
    headers: [...request.headers.entries()],
    body: request.body.toString('base64'),
    cookies: checkJson(request.cookies, 'cookies', request) as RequestCookies,
    meta: checkJson(request.meta, 'meta', request) as Record<string, unknown>,
    cbKwargs: checkJson(request.cbKwargs, 'cbKwargs', request) as Record<string, unknown>,
    priority: request.priority,
    dontFilter: request.dontFilter,
    flags: [...request.flags],
    encoding: request.encoding,
  };
}

/** The request a dict describes, its callbacks looked up on `spider`; JobdirError when a method is missing. */
export function requestFromDict(dict: RequestDict, spider: Spider): Request {
  return new Request(dict.url, {
    callback: dict.callback === null ? null : (method(spider, dict.callback) as Callback),
    errback: dict.errback === null ? null : (method(spider, dict.errback) as Errback),
    method: dict.method,
    headers: dict.headers,
    body: Buffer.from(dict.body, 'base64'),
    cookies: dict.cookies,
    meta: dict.meta,
    cbKwargs: dict.cbKwargs,
    priority: dict.priority,
    dontFilter: dict.dontFilter,
    flags: dict.flags,
    encoding: dict.encoding,
  });
}

/** The callback names a dict refers to that `spider` lacks (checked when a JOBDIR is opened). */
export function missingMethods(dict: RequestDict, spider: Spider): string[] {
  return [dict.callback, dict.errback].filter((name): name is string => name !== null && typeof (spider as unknown as Record<string, unknown>)[name] !== 'function');
}

/**
 * The name under which `fn` is reachable on the spider: a method of its
 * class (or a base class), or a function-valued own field. Bound functions
 * and arrow functions made in a callback are not, as in Scrapy.
 */
function methodName(spider: Spider, fn: Function): string {
  for (let obj: object | null = spider; obj !== null && obj !== Object.prototype; obj = Object.getPrototypeOf(obj) as object | null) {
    for (const name of Object.getOwnPropertyNames(obj)) {
      if (name === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(obj, name);
      if (descriptor !== undefined && 'value' in descriptor && descriptor.value === fn) return name;
    }
  }
  const shown = fn.name === '' ? '<anonymous>' : `'${fn.name}'`;
  throw new RequestSerializationError(
    `Function ${shown} is not an instance method in: ${spider.toString()} (a request kept in JOBDIR names its callback: ` +
      'pass a spider method such as this.parsePage, not an arrow function or a bound function, and put extra data in cbKwargs)',
  );
}

function method(spider: Spider, name: string): Function {
  const value = (spider as unknown as Record<string, unknown>)[name];
  if (typeof value !== 'function') {
    throw new JobdirError(`Method '${name}' not found in: ${spider.toString()} (a request in JOBDIR names it as its callback: restore the method, or start over with an empty JOBDIR)`);
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null) return `a ${value.constructor?.name ?? 'object'}`;
  return `a ${typeof value}`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `value` itself when it is made only of JSON values; otherwise RequestSerializationError naming the first bad key. */
function checkJson(value: unknown, path: string, request: Request): unknown {
  const fail = (where: string, bad: unknown): never => {
    throw new RequestSerializationError(
      `${where} of ${request.toString()} holds ${kindOf(bad)}, which JSON cannot carry: a request kept in JOBDIR stores meta, cbKwargs and cookies as JSON ` +
        '(strings, finite numbers, booleans, null, arrays, plain objects)',
    );
  };
  const visit = (current: unknown, where: string): void => {
    if (current === null || typeof current === 'string' || typeof current === 'boolean') return;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) fail(where, current);
      return;
    }
    if (typeof current !== 'object') return fail(where, current);
    if (Array.isArray(current)) {
      current.forEach((item, index) => visit(item, `${where}[${index}]`));
      return;
    }
    if (!isPlainObject(current)) return fail(where, current);
    for (const [key, item] of Object.entries(current)) visit(item, /^[A-Za-z_$][\w$]*$/.test(key) ? `${where}.${key}` : `${where}[${JSON.stringify(key)}]`);
  };
  visit(value, path);
  return value;
}
