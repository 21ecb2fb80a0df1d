import type { Headers } from '../../http/headers.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { reasonPhrase } from './status-message.js';

/**
 * Byte counts for `downloader/request_bytes` and `downloader/response_bytes`,
 * computed as Scrapy 2.8 computes them (request_httprepr, get_header_size,
 * get_status_size) so the stats compare with a Scrapy crawl's. They estimate
 * what went over the wire: compression, chunking and the real header order
 * are not seen here.
 */

/** The length of the request as an HTTP/1.1 message: request line, Host, headers, blank line, body. */
export function requestSize(request: Request): number {
  const url = new URL(request.url);
  const path = (url.pathname || '/') + (url.search.length > 1 ? url.search : '');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let size = Buffer.byteLength(`${request.method} ${path} HTTP/1.1\r\n`) + Buffer.byteLength(`Host: ${host}\r\n`);
  const lines: string[] = [];
  for (const [name, values] of request.headers) for (const value of values) lines.push(`${name}: ${value}`);
  if (lines.length > 0) size += Buffer.byteLength(lines.join('\r\n')) + 2;
  return size + 2 + request.body.length;
}

/**
 * `name: value` for every value plus a CRLF between names. Scrapy's formula
 * gives -2 for a response without headers; kept, so counts match Scrapy's.
 */
export function headersSize(headers: Headers): number {
  let size = 0;
  for (const [name, values] of headers) {
    for (const value of values) size += 2 + Buffer.byteLength(name) + Buffer.byteLength(value);
  }
  return size + 2 * (headers.size - 1);
}

/** `HTTP/1.1 200 OK\r\n`: 15 bytes plus the reason phrase. */
export function statusLineSize(status: number): number {
  return Buffer.byteLength(reasonPhrase(status) ?? '') + 15;
}

/** Body, headers, status line and the two CRLFs between them. */
export function responseSize(response: Response): number {
  return response.body.length + headersSize(response.headers) + statusLineSize(response.status) + 4;
}
