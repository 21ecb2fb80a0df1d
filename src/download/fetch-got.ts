import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import got, { type Got, type OptionsInit, type StreamOptions } from 'got';
import { createRequire } from 'node:module';
import type { FetchOptions } from './fetch-contract.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { AbortError, UnsupportedSchemeError, type DownloadError } from './download-errors.js';
import { fetchData, fetchFile } from './local-schemes.js';
import { ACCEPT_ENCODING } from './decompress.js';
import { seineGotOptions, type GotFetchOptions } from './got-options.js';
import { repairHeaderColons } from './header-colon-repair.js';
import { ResponseReceiver, type TransferState } from './response-receiver.js';
import { armDeadline, clientOptions, disarmDeadline, sendsBody, throwUnlessStaleSocketRetry } from './http-client-core.js';
import type { HttpFetch, HttpFetchCallOptions } from './fetch-options.js';

export { gotFetchOptionsFromSettings, seineGotOptions, type GotFetchOptions } from './got-options.js';

/**
 * seine's HTTP/2 downloader (H2DownloadHandler): the only module that
 * imports got (docs/contributing.md). HTTP/1.1 downloads go through
 * fetch-node.ts, on node:http, which costs a third of got's CPU per request
 * and none of its ~30 MB (docs/performance.md, "The HTTP client"); got stays
 * for http2-wrapper's HTTP/2, loaded only when a crawl asks for it.
 *
 * got is used as a thin transport: redirects, retries, throwing on error
 * statuses, got's user-agent and cookies are switched off, and everything
 * else behaves as in fetch-node.ts, whose receiver (response-receiver.ts)
 * this shares: one DOWNLOAD_TIMEOUT deadline, DOWNLOAD_MAXSIZE /
 * DOWNLOAD_WARNSIZE, decoding after the transfer, data loss, proxies through
 * agent-pool.ts, stale keep-alive sockets retried. Request header names
 * reach the wire lower-cased (got normalises them).
 */

/** A FetchFn that also closes its keep-alive connections. */
export type GotFetch = HttpFetch;

/** FetchOptions plus `failOnDataLoss` (meta.download_fail_on_dataloss). */
export type GotFetchCallOptions = HttpFetchCallOptions;

/**
 * got's own copy of http2-wrapper (its dependency, not seine's): the HTTP/2
 * agent handed to got must be of the copy got drives. Loaded only by
 * H2DownloadHandler's first fetch function.
 */
function http2Agent(): { destroy(): void } {
  const fromGot = createRequire(createRequire(import.meta.url).resolve('got'));
  const { Agent } = fromGot('http2-wrapper') as { Agent: new () => { destroy(): void } };
  return new Agent();
}

export function createGotFetch(options: GotFetchOptions = {}): GotFetch {
  const { compression, keepWire, failOnDataLoss, agents, maxHeaderSize, lenient } = clientOptions(options);
  const client = withoutDefaultHeaders(got.extend(seineGotOptions(), { maxHeaderSize, request: nodeRequest(lenient), mutableDefaults: true }));
  // http2-wrapper's `auto` picks HTTP/2 or HTTP/1.1 by ALPN; it connects by itself, so it cannot go through a proxy's tunnel.
  const h2 = options.http2 === true ? { client: withoutDefaultHeaders(got.extend(seineGotOptions(), { maxHeaderSize, http2: true, mutableDefaults: true })), agent: http2Agent() } : null;

  const fetch = async (request: Request, fetchOptions: GotFetchCallOptions): Promise<Response> => {
    const url = request.url.replace(/#.*$/s, '');
    if (fetchOptions.signal.aborted) throw new AbortError(request.url, { cause: fetchOptions.signal.reason });
    const scheme = request.url.slice(0, request.url.indexOf(':')).toLowerCase();
    if (scheme === 'file') return fetchFile(request);
    if (scheme === 'data') return fetchData(request);
    if (scheme !== 'http' && scheme !== 'https') throw new UnsupportedSchemeError(request.url, scheme);
    const route = agents.route(url, fetchOptions.proxy, request.headers);
    const controller = new AbortController();
    let failure: DownloadError | null = null;
    const fail = (error: DownloadError): void => {
      if (failure !== null) return;
      failure = error;
      controller.abort(error);
    };
    const onAbort = (): void => fail(new AbortError(request.url, { cause: fetchOptions.signal.reason }));
    const timer = armDeadline(request.url, fetchOptions, onAbort, fail);
    try {
      const headers = route.headers.toObject() as Record<string, string | string[] | undefined>;
      if (!route.headers.has('user-agent')) headers['user-agent'] = undefined;
      if (compression && !route.headers.has('accept-encoding')) headers['accept-encoding'] = ACCEPT_ENCODING;
      const viaH2 = h2 !== null && scheme === 'https' && (fetchOptions.proxy === null || fetchOptions.proxy === '');
      const gotOptions: StreamOptions = {
        method: request.method as OptionsInit['method'],
        headers,
        agent: viaH2 ? { ...route.agents, http2: h2.agent as never } : route.agents,
        signal: controller.signal,
      };
      if (sendsBody(request)) {
        gotOptions.body = request.body;
        if (request.method === 'GET') gotOptions.allowGetBody = true;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          return await transfer(viaH2 ? h2.client : client, url, request, gotOptions, fetchOptions, { compression, keepWire, failOnDataLoss: fetchOptions.failOnDataLoss ?? failOnDataLoss, fail, failure: () => failure, lenient, maxHeaderSize });
        } catch (error) {
          throwUnlessStaleSocketRetry(error, attempt, request.method, failure);
        }
      }
    } finally {
      disarmDeadline(timer, fetchOptions, onAbort);
    }
  };
  return Object.assign(fetch, {
    close: () => {
      agents.destroy();
      h2?.agent.destroy();
    },
  });
}

/**
 * got's defaults hold its own User-Agent, which put `user-agent` first in
 * every request's header object whatever the request's order. Emptied, the
 * headers reach the wire in the order the request holds them (a session's
 * browser header set stays in its browser's order:
 * spec/sessions/browser-headers.spec.ts reads rawHeaders at the server).
 * A request without User-Agent still sends none (`undefined` below).
 */
function withoutDefaultHeaders(client: Got): Got {
  client.defaults.options.headers = {};
  return client;
}

/** One attempt through got's stream; the receiver does the rest. */
function transfer(client: Got, url: string, request: Request, gotOptions: StreamOptions, fetchOptions: FetchOptions, state: TransferState): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const receiver = new ResponseReceiver(request, url, fetchOptions, state, resolve, reject);
    const stream = client.stream(url, gotOptions);
    receiver.source = stream;
    // In stream mode got waits for the caller to end a body-capable request (DELETE, OPTIONS…) that has no body.
    if (gotOptions.body === undefined && request.method !== 'GET' && request.method !== 'HEAD') stream.end();
    stream.on('request', (req: ClientRequest) => receiver.onRequest(req));
    stream.on('response', (res: IncomingMessage) => receiver.onResponse(res));
    stream.on('data', (chunk: Buffer) => receiver.onData(chunk));
    stream.once('end', () => receiver.onEnd());
    stream.once('error', (error) => receiver.onError(error));
  });
}

/**
 * http.request / https.request with what got does not pass through:
 * `insecureHTTPParser` (llhttp's lenient flags, per request) and no cap on
 * the number of headers (node keeps only the first ~1,000 by default and
 * drops the rest silently; DOWNLOAD_MAXHEADERSIZE bounds them instead).
 */
function nodeRequest(lenient: boolean): (url: URL, options: RequestOptions, callback?: (res: IncomingMessage) => void) => ClientRequest {
  return (url, options, callback) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, { ...options, insecureHTTPParser: lenient }, callback);
    request.maxHeadersCount = 0;
    if (lenient) request.once('socket', repairHeaderColons);
    return request;
  };
}
