import http, { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions } from 'node:http';
import https from 'node:https';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { AbortError, UnsupportedSchemeError, type DownloadError } from './download-errors.js';
import { fetchData, fetchFile } from './local-schemes.js';
import { ACCEPT_ENCODING } from './decompress.js';
import { repairHeaderColons } from './header-colon-repair.js';
import { lookupHost } from './invalid-lookup.js';
import { ResponseReceiver, type TransferState } from './response-receiver.js';
import { armDeadline, clientOptions, disarmDeadline, sendsBody, throwUnlessStaleSocketRetry } from './http-client-core.js';
import type { HttpFetch, HttpFetchCallOptions, HttpFetchOptions } from './fetch-options.js';

export { httpFetchOptionsFromSettings, type HttpFetch, type HttpFetchCallOptions, type HttpFetchOptions } from './fetch-options.js';

/**
 * seine's HTTP/1.1 downloader, straight on node:http and node:https with the
 * keep-alive agents of agent-pool.ts (direct, HTTP proxy, CONNECT tunnel,
 * SOCKS5). Everything Scrapy's downloader middlewares own is left to them:
 * redirects, retries, HTTP error statuses, User-Agent, cookies. What
 * Scrapy's download handler owns is done here and in response-receiver.ts:
 * DOWNLOAD_TIMEOUT as one deadline for connect, response and body;
 * DOWNLOAD_MAXSIZE / DOWNLOAD_WARNSIZE on Content-Length, on the bytes as
 * they arrive and on the decoded body; HTTPS without certificate checks;
 * proxies; data loss; a request retried on a fresh socket when a kept-alive
 * one turns out closed. `Accept-Encoding: gzip, deflate, br` is added only
 * when the request has none, and the body is decoded after the transfer
 * (decompress.ts).
 *
 * Why not got (which carried every download until issue 26) or undici,
 * measured with `npm run bench:download` (docs/performance.md, "The HTTP
 * client"): got cost ~470–500 µs of CPU per request and +34 MB of RSS once
 * imported, node:http ~150–200 µs and +0.4 MB; undici.request is ~50 µs
 * cheaper than node:http but +10.7 MB, and has its own connection and
 * proxy model, so the CONNECT and SOCKS agents would have to be rebuilt.
 * got remains only under H2DownloadHandler (fetch-got.ts), for HTTP/2.
 *
 * On the wire a request is what got sent: header names lower-cased, in the
 * request's order (a session's browser header set stays in its browser's
 * order), Accept-Encoding then Content-Length appended when absent, then
 * Node's Host and Connection; no User-Agent unless the request has one.
 */
export function createNodeFetch(options: HttpFetchOptions = {}): HttpFetch {
  const { compression, keepWire, failOnDataLoss, agents, maxHeaderSize, lenient } = clientOptions(options);

  const fetch = async (request: Request, fetchOptions: HttpFetchCallOptions): Promise<Response> => {
    const href = request.url;
    const hash = href.indexOf('#');
    const url = hash === -1 ? href : href.slice(0, hash);
    if (fetchOptions.signal.aborted) throw new AbortError(href, { cause: fetchOptions.signal.reason });
    const scheme = href.slice(0, href.indexOf(':')).toLowerCase();
    if (scheme === 'file') return fetchFile(request);
    if (scheme === 'data') return fetchData(request);
    if (scheme !== 'http' && scheme !== 'https') throw new UnsupportedSchemeError(href, scheme);
    const route = agents.route(url, fetchOptions.proxy, request.headers);
    let failure: DownloadError | null = null;
    let current: ResponseReceiver | null = null;
    const state: TransferState = {
      compression,
      keepWire,
      lenient,
      maxHeaderSize,
      failOnDataLoss: fetchOptions.failOnDataLoss ?? failOnDataLoss,
      fail: (error) => {
        if (failure !== null) return;
        failure = error;
        // Settled now, not when node reports the destroyed request: one still queued for a socket reports nothing until it gets one.
        current?.onError(error);
      },
      failure: () => failure,
    };
    const onAbort = (): void => state.fail(new AbortError(href, { cause: fetchOptions.signal.reason }));
    const timer = armDeadline(href, fetchOptions, onAbort, state.fail);
    try {
      const body = sendsBody(request) ? request.body : null;
      const init = requestOptions(url, scheme, request.method, wireHeaders(route.headers.toObject(), compression, body, url), route.agents, lenient, maxHeaderSize);
      for (let attempt = 1; ; attempt++) {
        try {
          return await new Promise<Response>((resolve, reject) => {
            if (failure !== null) throw failure;
            current = new ResponseReceiver(request, url, fetchOptions, state, resolve, reject);
            send(scheme, init, body, current);
          });
        } catch (error) {
          throwUnlessStaleSocketRetry(error, attempt, request.method, failure);
        }
      }
    } finally {
      disarmDeadline(timer, fetchOptions, onAbort);
    }
  };
  return Object.assign(fetch, { close: () => agents.destroy() });
}

/**
 * The request's headers as got sent them: names lower-cased in the request's
 * order, then Accept-Encoding, Content-Length and Authorization (from
 * credentials in the URL) when the request has none.
 */
function wireHeaders(own: Record<string, string | string[]>, compression: boolean, body: Buffer | null, url: string): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const name in own) {
    const lower = name.toLowerCase();
    if (lower === '__proto__') Object.defineProperty(headers, lower, { value: own[name], enumerable: true, writable: true, configurable: true });
    else headers[lower] = own[name];
  }
  if (compression && headers['accept-encoding'] === undefined) headers['accept-encoding'] = ACCEPT_ENCODING;
  if (body !== null && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  const at = url.indexOf('@');
  if (at !== -1 && headers['authorization'] === undefined) {
    const { username, password } = new URL(url);
    if (username !== '' || password !== '') headers['authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(username)}:${decodeURIComponent(password)}`).toString('base64')}`;
  }
  return headers;
}

function requestOptions(url: string, scheme: string, method: string, headers: OutgoingHttpHeaders, agents: { http: http.Agent; https: https.Agent }, lenient: boolean, maxHeaderSize: number): RequestOptions & { rejectUnauthorized: boolean } {
  const parsed = new URL(url);
  const hostname = parsed.hostname;
  return {
    protocol: parsed.protocol,
    // node:http wants an IPv6 address without its brackets.
    hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
    port: parsed.port,
    path: parsed.pathname + parsed.search,
    method,
    headers,
    agent: scheme === 'https' ? agents.https : agents.http,
    lookup: lookupHost as RequestOptions['lookup'],
    // llhttp's lenient flags, per request (DOWNLOAD_LENIENT_HTTP).
    insecureHTTPParser: lenient,
    maxHeaderSize,
    rejectUnauthorized: false,
  };
}

/** One attempt: the request on its way, its response and failures handed to `receiver`. */
function send(scheme: string, init: RequestOptions, body: Buffer | null, receiver: ResponseReceiver): void {
  let req: ClientRequest;
  try {
    req = (scheme === 'https' ? https : http).request(init);
  } catch (error) {
    // A header value node refuses (a line break in it): a download error like any other.
    receiver.onError(error);
    return;
  }
  // Node keeps only the first ~2,000 header lines and drops the rest silently; DOWNLOAD_MAXHEADERSIZE bounds them instead.
  req.maxHeadersCount = 0;
  if (init.insecureHTTPParser === true) req.once('socket', repairHeaderColons);
  let response: IncomingMessage | null = null;
  receiver.onRequest(req);
  receiver.source = {
    destroy: () => req.destroy(),
    pause: () => response?.pause(),
    resume: () => response?.resume(),
  };
  req.on('error', (error) => receiver.onError(error));
  req.once('response', (res: IncomingMessage) => {
    response = res;
    receiver.onResponse(res);
    res.on('data', (chunk: Buffer) => receiver.onData(chunk));
    res.once('end', () => receiver.onEnd());
    res.on('error', (error: Error & { code?: string }) => receiver.onError(error.message === 'aborted' && error.code === 'ECONNRESET' ? serverAborted() : error));
  });
  // A DELETE or OPTIONS without a body is ended here too: node does not wait for one.
  if (body === null) req.end();
  else req.end(body);
}

/** The body stopped short (the connection closed before its end): in got's words, which logs and docs quote. */
function serverAborted(): Error {
  return Object.assign(new Error('The server aborted pending request'), { code: 'ECONNRESET' });
}
