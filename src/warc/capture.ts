/**
 * One download as the archive records it: the request as sent and the
 * response as received, as plain header lists and bytes, taken from seine's
 * Request and Response (or, for a rendered page, from the browser's network
 * exchange). Nothing here knows the WARC format; warc-records.ts writes it.
 */
import { STATUS_CODES } from 'node:http';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { NetworkExchange, WireResponse } from './network-exchange.js';

export type HeaderList = Array<[string, string]>;

export interface Capture {
  readonly url: string;
  readonly date: Date;
  readonly ip: string | null;
  readonly requestLine: string;
  readonly requestHeaders: HeaderList;
  readonly requestBody: Buffer;
  readonly statusLine: string;
  readonly responseHeaders: HeaderList;
  readonly responseBody: Buffer;
  /**
   * A body the download streamed to a temporary file (Response.bodyFile,
   * the media pipelines' downloads): a link to it that this capture owns,
   * read when the record is written, and its size. Null: `responseBody`.
   */
  readonly responseBodyFile: { readonly path: string; readonly size: number } | null;
  /** The page as the browser rendered it (page.content()), recorded apart from the network response. */
  readonly renderedDom: Buffer | null;
  /** WARC-Truncated: why the body is shorter than the server meant it (`disconnect`: the connection was lost, DOWNLOAD_FAIL_ON_DATALOSS off). */
  readonly truncated: string | null;
}

/** What seine's HTTP client sends besides the request's own headers (src/download/fetch-node.ts, and fetch-got.ts for HTTP/2). */
const CLIENT_ACCEPT_ENCODING = 'gzip, deflate, br';
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** Sent to a proxy, not to the site: not part of the exchange with the site. */
const PROXY_ONLY = 'proxy-authorization';

function pairsOf(headers: Iterable<readonly [string, readonly string[]]>): HeaderList {
  const pairs: HeaderList = [];
  for (const [name, values] of headers) for (const value of values) pairs.push([name, value]);
  return pairs;
}

function requestTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}` || '/';
}

/** Responses that carry no body whatever their Content-Length says (RFC 9110 §6.4.1). */
function hasNoBody(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
}

/**
 * The response headers for the body the archive holds. seine (and the
 * browser) hand over the body de-chunked and, where it was compressed,
 * decoded: Transfer-Encoding (and Content-Encoding, when `decoded`) no
 * longer describe it, and Content-Length must give its real length, or a
 * replay tool would cut or unpack it wrongly.
 */
export function headersForBody(headers: HeaderList, bodyLength: number, { method, status, decoded }: { method: string; status: number; decoded: boolean }): HeaderList {
  if (hasNoBody(method, status)) return headers.filter(([name]) => name.toLowerCase() !== 'transfer-encoding');
  let changed = false;
  const kept: HeaderList = [];
  let lengthAt = -1;
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'transfer-encoding' || (decoded && lower === 'content-encoding')) {
      changed = true;
      continue;
    }
    if (lower === 'content-length') {
      if (lengthAt >= 0) continue;
      lengthAt = kept.length;
      if (value.trim() !== String(bodyLength)) changed = true;
    }
    kept.push([name, value]);
  }
  if (lengthAt >= 0) kept[lengthAt] = [kept[lengthAt]![0], String(bodyLength)];
  else if (changed) kept.push(['Content-Length', String(bodyLength)]);
  return kept;
}

/**
 * A download by seine's HTTP client: the request after the downloader
 * middlewares, and the response as the server sent it when the client kept
 * that (`wire`: WARC_ENABLED), else as the client gave it (decoded).
 */
export function captureDownload(
  request: Request,
  response: Response,
  { compression, date, wire = null, bodyFile = null }: { compression: boolean; date: Date; wire?: WireResponse | null; bodyFile?: { path: string; size: number } | null },
): Capture {
  const requestHeaders: HeaderList = [];
  if (!request.headers.has('host')) requestHeaders.push(['Host', new URL(response.url).host]);
  for (const pair of pairsOf(request.headers.entries())) if (pair[0].toLowerCase() !== PROXY_ONLY) requestHeaders.push(pair);
  if (compression && !request.headers.has('accept-encoding')) requestHeaders.push(['Accept-Encoding', CLIENT_ACCEPT_ENCODING]);
  if ((request.body.length > 0 || METHODS_WITH_BODY.has(request.method)) && !request.headers.has('content-length')) requestHeaders.push(['Content-Length', String(request.body.length)]);
  const protocol = response.protocol ?? 'HTTP/1.1';
  const body = wire?.body ?? response.body;
  // Without the wire form, the HTTP client (src/download/build-response.ts) has already removed the Content-Encoding it decoded.
  const headers = wire === null ? pairsOf(response.headers.entries()) : wire.headers.map(([name, value]) => [name, value] as [string, string]);
  const reason = wire?.statusText || (STATUS_CODES[response.status] ?? '');
  return {
    url: response.url,
    date,
    ip: response.ip,
    // Node's client always sends HTTP/1.1, whatever version the server answers in.
    requestLine: `${request.method} ${requestTarget(response.url)} HTTP/1.1`,
    requestHeaders,
    requestBody: request.body,
    statusLine: `${protocol} ${response.status} ${reason}`.trimEnd(),
    responseHeaders: headersForBody(headers, bodyFile?.size ?? body.length, { method: request.method, status: response.status, decoded: false }),
    responseBody: body,
    responseBodyFile: bodyFile,
    renderedDom: null,
    truncated: response.flags.includes('dataloss') ? 'disconnect' : null,
  };
}

/** A page rendered in the browser: its network response as the browser received it, and the rendered DOM seine handed the callback. */
export function captureRendered(exchange: NetworkExchange, response: Response, { date }: { date: Date }): Capture {
  const body = exchange.body ?? Buffer.alloc(0);
  const status = `HTTP/1.1 ${exchange.status} ${exchange.statusText || (STATUS_CODES[exchange.status] ?? '')}`.trimEnd();
  return {
    url: exchange.url,
    date,
    ip: exchange.ip,
    requestLine: `${exchange.method} ${requestTarget(exchange.url)} HTTP/1.1`,
    requestHeaders: withHost(exchange.requestHeaders.map(([name, value]) => [name, value] as [string, string]).filter(([name]) => !name.startsWith(':')), exchange.url),
    requestBody: Buffer.alloc(0),
    statusLine: status,
    responseHeaders: headersForBody(exchange.headers.map(([name, value]) => [name, value] as [string, string]), body.length, { method: exchange.method, status: exchange.status, decoded: true }),
    responseBody: body,
    responseBodyFile: null,
    renderedDom: exchange.rendered ? response.body : null,
    truncated: null,
  };
}

function withHost(headers: HeaderList, url: string): HeaderList {
  return headers.some(([name]) => name.toLowerCase() === 'host') ? headers : [['Host', new URL(url).host], ...headers];
}
