import { pythonJsonDumps } from '../python/json-dumps.js';
import { Request, type RequestOptions } from './request.js';

export interface JsonRequestOptions extends RequestOptions {
  /** Sent as the body, written as Python's `json.dumps(data, sort_keys=True)`; makes the method POST unless `method` is given. Ignored (with a warning) when `body` is given too. */
  data?: unknown;
  /** Keys in the order given instead of sorted. */
  sortKeys?: boolean;
}

/**
 * A number as JavaScript writes it, with Python's two-digit exponent (1e-07);
 * a non-finite number is null, as JSON.stringify writes it. JavaScript has
 * one number type: a whole number is written as an integer (as Python writes
 * an int), so 1e16 is 10000000000000000, not 1e+16.
 */
export function jsonRequestNumber(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  const text = String(value);
  const exponent = /^(-?[\d.]+)e([+-])(\d+)$/.exec(text);
  if (exponent === null) return text;
  return `${exponent[1]}e${exponent[2]}${exponent[3]!.padStart(2, '0')}`;
}

const ACCEPT = 'application/json, text/javascript, */*; q=0.01';

/** Where "Both body and data passed" goes: a Python UserWarning in Scrapy, a process warning here. */
function warnBodyAndData(): void {
  process.emitWarning('JsonRequest: both body and data passed; data is ignored', { code: 'SEINE_JSON_REQUEST_BODY_AND_DATA' });
}

function withBody(options: JsonRequestOptions, setMethod: boolean): RequestOptions {
  const { data, sortKeys, ...rest } = options;
  const bodyPassed = rest.body !== undefined && rest.body !== null;
  const dataPassed = data !== undefined && data !== null;
  if (bodyPassed && dataPassed) warnBodyAndData();
  if (bodyPassed || !dataPassed) return rest;
  const body = pythonJsonDumps(data, { sortKeys: sortKeys ?? true, number: jsonRequestNumber });
  return setMethod && rest.method === undefined ? { ...rest, body, method: 'POST' } : { ...rest, body };
}

/**
 * Scrapy's JsonRequest: a request whose body is JSON. `new JsonRequest(url,
 * { data })` is a POST of `data`; the headers say so (Content-Type
 * application/json, and Accept as Scrapy's), unless given.
 */
export class JsonRequest extends Request {
  readonly sortKeys: boolean;

  constructor(url: string, options: JsonRequestOptions = {}) {
    super(url, withBody(options, true));
    this.sortKeys = options.sortKeys ?? true;
    this.headers.setDefault('Content-Type', 'application/json');
    this.headers.setDefault('Accept', ACCEPT);
  }

  /** A changed copy; `data` gives a new body (the method stays what it was, as in Scrapy). */
  override replace(changes: JsonRequestOptions & { url?: string } = {}): JsonRequest {
    return super.replace({ sortKeys: this.sortKeys, ...withBody({ sortKeys: this.sortKeys, ...changes }, false) } as RequestOptions) as JsonRequest;
  }
}

