import { setMaxListeners } from 'node:events';
import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import got, { type Got, type OptionsInit, type StreamOptions } from 'got';
import { createRequire } from 'node:module';
import type { FetchFn, FetchOptions, WarnSizeStage } from './fetch-contract.js';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { Headers } from '../http/headers.js';
import { AbortError, ConnectionLostError, DecompressionError, DownloadError, HeadersTooLargeError, InvalidResponseError, MaxSizeError, TimeoutError, UnsupportedSchemeError } from './download-errors.js';
import { DEFAULT_SETTINGS } from '../settings/default-settings.js';
import { fetchData, fetchFile } from './local-schemes.js';
import { ACCEPT_ENCODING, ContentDecodingFailure, DecodedTooLarge, decodeContent } from './decompress.js';
import { mapDownloadError, type FailureContext } from './map-download-error.js';
import { AgentPool } from './agent-pool.js';
import { BodyBuffer } from './body-buffer.js';
import { BodyFileWriter } from './body-file.js';
import type { BodyFile } from '../http/response.js';
import { seineGotOptions, type GotFetchOptions } from './got-options.js';
import { repairHeaderColons } from './header-colon-repair.js';
import { keepWireResponse } from '../warc/network-exchange.js';

export { gotFetchOptionsFromSettings, seineGotOptions, type GotFetchOptions } from './got-options.js';

/**
 * seine's downloader: the only module that imports got (docs/contributing.md).
 *
 * got is used as a thin transport. Everything Scrapy's downloader
 * middlewares own is switched off here: redirects (RedirectMiddleware),
 * retries (RetryMiddleware), throwing on error statuses (HttpErrorMiddleware),
 * got's user-agent (UserAgentMiddleware), cookies. What Scrapy's download
 * handler owns is done here: DOWNLOAD_TIMEOUT as one deadline for connect,
 * response and body; DOWNLOAD_MAXSIZE / DOWNLOAD_WARNSIZE on the bytes as they
 * arrive (and on Content-Length first); HTTPS without certificate checks;
 * proxies; data loss. Decompression (HttpCompressionMiddleware in Scrapy)
 * happens here after the body is complete, on the wire bytes, so that sizes
 * and errors are exact; DOWNLOAD_MAXSIZE bounds the decoded bytes while they
 * inflate and DOWNLOAD_WARNSIZE warns on them (decompress.ts). A body with a
 * Content-Length is received into one buffer of that size (body-buffer.ts): `Accept-Encoding: gzip, deflate, br` is added only
 * when the request has none, and Content-Encoding is removed once decoded,
 * as Scrapy does. Request header names reach the wire lower-cased (got
 * normalises them); HTTP/1.1 treats names case-insensitively.
 *
 * Measured with `npm run bench:download` (docs/performance.md, "The HTTP
 * client"): got costs ~0.3 ms of CPU per request more than plain node:http
 * and ~0.3–0.4 ms more than undici.request (6–8 % of a crawl page's CPU);
 * this wrapper adds nothing measurable over got itself. Kept for now: the
 * switch would give back ~10 % of a CPU-bound crawl, and got carries the
 * timeouts, proxies and decompression seine relies on.
 */

/** A FetchFn that also closes its keep-alive connections. */
export type GotFetch = FetchFn & { close(): void };

/**
 * FetchOptions plus what the contract does not carry yet: Scrapy's
 * `meta.download_fail_on_dataloss` overrides DOWNLOAD_FAIL_ON_DATALOSS per request.
 */
export interface GotFetchCallOptions extends FetchOptions {
  failOnDataLoss?: boolean;
}


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

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
/** A kept-alive socket the server has closed fails with these before any response; Twisted's pool retries such requests, so do we. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export function createGotFetch(options: GotFetchOptions = {}): GotFetch {
  const compression = options.compression ?? true;
  const keepWire = options.keepWire ?? false;
  const failOnDataLoss = options.failOnDataLoss ?? true;
  const agents = new AgentPool(options.maxSocketsPerHost ?? Infinity);
  const maxHeaderSize = options.maxHeaderSize ?? DEFAULT_SETTINGS.DOWNLOAD_MAXHEADERSIZE;
  const lenient = options.lenientHttp ?? DEFAULT_SETTINGS.DOWNLOAD_LENIENT_HTTP;
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
    allowManyListeners(fetchOptions.signal);
    fetchOptions.signal.addEventListener('abort', onAbort, { once: true });
    const timer = fetchOptions.timeoutMs > 0 ? setTimeout(() => fail(new TimeoutError(request.url, fetchOptions.timeoutMs)), fetchOptions.timeoutMs) : null;
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
      // Twisted sends no body (and no Content-Length) for an empty body, except Content-Length: 0 for POST/PUT/PATCH.
      if (request.body.length > 0 || METHODS_WITH_BODY.has(request.method)) {
        if (request.method === 'HEAD') throw new DownloadError(request.url, `Cannot send a body with a HEAD request to ${request.url}: remove the body or use another method.`);
        gotOptions.body = request.body;
        if (request.method === 'GET') gotOptions.allowGetBody = true;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          return await transfer(viaH2 ? h2.client : client, url, request, gotOptions, fetchOptions, { compression, keepWire, failOnDataLoss: fetchOptions.failOnDataLoss ?? failOnDataLoss, fail, failure: () => failure, lenient, maxHeaderSize });
        } catch (error) {
          if (failure !== null) throw failure;
          // Up to two fresh tries: several pooled sockets can have gone stale at once.
          if (attempt < 3 && error instanceof StaleSocket && IDEMPOTENT.has(request.method)) continue;
          throw error instanceof StaleSocket ? error.mapped : error;
        }
      }
    } finally {
      if (timer !== null) clearTimeout(timer);
      fetchOptions.signal.removeEventListener('abort', onAbort);
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

const widened = new WeakSet<AbortSignal>();

/**
 * One crawl-wide signal is shared by every download in flight, each adding
 * (and later removing) one listener; Node warns past 10 listeners as a
 * leak guard, which would fire at CONCURRENT_REQUESTS = 16.
 */
function allowManyListeners(signal: AbortSignal): void {
  if (widened.has(signal)) return;
  widened.add(signal);
  setMaxListeners(0, signal);
}

/** A failure on a reused keep-alive socket before any response byte: worth another try on a fresh socket. */
class StaleSocket extends Error {
  constructor(readonly mapped: DownloadError) {
    super(mapped.message);
  }
}

interface TransferState {
  compression: boolean;
  keepWire: boolean;
  lenient: boolean;
  maxHeaderSize: number;
  failOnDataLoss: boolean;
  fail: (error: DownloadError) => void;
  failure: () => DownloadError | null;
}

/** One attempt: streams the body, enforcing the size limits as bytes arrive. */
function transfer(client: Got, url: string, request: Request, gotOptions: StreamOptions, fetchOptions: FetchOptions, state: TransferState): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const stream = client.stream(url, gotOptions);
    // In stream mode got waits for the caller to end a body-capable request (DELETE, OPTIONS…) that has no body.
    if (gotOptions.body === undefined && request.method !== 'GET' && request.method !== 'HEAD') stream.end();
    const collected = new BodyBuffer();
    // A media download's 200 body goes to a temporary file instead (fetchOptions.bodyDir); other statuses stay in memory.
    let file: BodyFileWriter | null = null;
    let toFile = false;
    const context: FailureContext = { url: request.url, responseReceived: false, received: 0, expected: null };
    let response: IncomingMessage & { ip?: string } | null = null;
    let clientRequest: ClientRequest | null = null;
    let warned = false;
    let settled = false;
    const { maxSize, warnSize } = fetchOptions;

    const warn = (size: number, stage: WarnSizeStage): void => {
      if (warned) return;
      warned = true;
      fetchOptions.onWarnSize?.(size, stage);
    };
    const finish = (body: Buffer, flags: string[], bodyFile: BodyFile | null = null): void => {
      if (settled) return;
      settled = true;
      void buildResponse(request, url, response!, body, flags, state, fetchOptions, bodyFile).then((built) => {
        // DOWNLOAD_WARNSIZE on the decoded body, when the wire bytes did not already warn (as Scrapy >= 2.11).
        if (!warned && warnSize > 0 && built.body.length > warnSize && built.body.length !== body.length) fetchOptions.onWarnSize?.(built.body.length, 'decompressed');
        resolve(built);
      }, reject);
    };
    const failWith = (error: unknown): void => {
      if (settled) return;
      settled = true;
      stream.destroy();
      const partial = file;
      file = null;
      const known = state.failure();
      // The partial file is removed before the failure is reported: nothing is left behind once the download has failed.
      const rejectWith = (error: unknown): void => {
        if (partial === null) reject(error);
        else void partial.discard().then(() => reject(error));
      };
      if (known !== null) {
        rejectWith(known);
        return;
      }
      let mapped = mapDownloadError(error, context);
      if (mapped instanceof InvalidResponseError && mapped.parserCode === 'HPE_HEADER_OVERFLOW') mapped = new HeadersTooLargeError(request.url, state.maxHeaderSize, { cause: mapped.cause });
      const code = (mapped.cause as { code?: unknown } | undefined)?.code;
      if (!context.responseReceived && clientRequest?.reusedSocket === true && typeof code === 'string' && STALE_SOCKET_CODES.has(code)) {
        rejectWith(new StaleSocket(mapped));
      } else if (context.responseReceived && !state.failOnDataLoss && mapped instanceof ConnectionLostError) {
        settled = false;
        if (partial === null) finish(collected.take(), ['dataloss']);
        else partial.finish().then((bodyFile) => finish(EMPTY_BODY, ['dataloss'], bodyFile), reject);
      } else {
        rejectWith(mapped);
      }
    };

    stream.on('request', (req: ClientRequest) => {
      clientRequest = req;
    });
    stream.on('response', (res: IncomingMessage & { ip?: string }) => {
      response = res;
      context.responseReceived = true;
      // Lenient parsing read the body as chunked; a peer that framed it by Content-Length would
      // start the next response elsewhere, so this connection is not reused (docs/security.md).
      if (state.lenient && clientRequest !== null && res.headers['transfer-encoding'] !== undefined && res.headers['content-length'] !== undefined) clientRequest.shouldKeepAlive = false;
      // A compressed body is decoded in memory after the transfer (decompress.ts): it stays there.
      const encoded = state.compression && res.headers['content-encoding'] !== undefined;
      toFile = fetchOptions.bodyDir != null && res.statusCode === 200 && request.method !== 'HEAD' && !encoded;
      const length = Number(res.headers['content-length']);
      if (!hasBody(request.method, res.statusCode ?? 0) || res.headers['content-length'] === undefined || !Number.isSafeInteger(length)) return;
      context.expected = length;
      if (maxSize > 0 && length > maxSize) {
        state.fail(new MaxSizeError(request.url, { size: length, maxSize, stage: 'expected' }));
        return;
      }
      if (warnSize > 0 && length > warnSize) warn(length, 'expected');
      collected.expect(length);
    });
    stream.on('data', (chunk: Buffer) => {
      // Bytes still in the pipe after the transfer failed (over DOWNLOAD_MAXSIZE, aborted) are dropped.
      if (settled || state.failure() !== null) return;
      // Opened with the first byte: an empty body stays an empty buffer.
      if (toFile && file === null) file = new BodyFileWriter(fetchOptions.bodyDir!);
      if (file === null) collected.push(chunk);
      else if (!file.write(chunk)) {
        // The disk is slower than the network: the socket waits, so nothing piles up in memory.
        stream.pause();
        file.onDrain(() => stream.resume());
      }
      context.received += chunk.length;
      if (maxSize > 0 && context.received > maxSize) {
        collected.clear();
        state.fail(new MaxSizeError(request.url, { size: context.received, maxSize, stage: 'received', method: request.method }));
        return;
      }
      if (warnSize > 0 && context.received > warnSize) warn(context.received, 'received');
    });
    stream.once('end', () => {
      if (file !== null) {
        const done = file;
        file = null;
        done.finish().then((bodyFile) => {
          // The transfer failed meanwhile (an error after the last byte): the file goes with it.
          if (settled) void done.discard();
          else finish(EMPTY_BODY, [], bodyFile);
        }, failWith);
        return;
      }
      let body: Buffer;
      try {
        body = collected.take();
      } catch (error) {
        // Past buffer.constants.MAX_LENGTH (4 GiB), possible only with DOWNLOAD_MAXSIZE = 0.
        failWith(error);
        return;
      }
      finish(body, []);
    });
    stream.once('error', failWith);
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

function hasBody(method: string, status: number): boolean {
  return method !== 'HEAD' && status !== 204 && status !== 304 && (status < 100 || status >= 200);
}

const EMPTY_BODY = Buffer.alloc(0);

async function buildResponse(
  request: Request,
  url: string,
  res: IncomingMessage & { ip?: string },
  wire: Buffer,
  flags: string[],
  { compression, keepWire }: Pick<TransferState, 'compression' | 'keepWire'>,
  { maxSize }: FetchOptions,
  bodyFile: BodyFile | null,
): Promise<Response> {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  let body = wire;
  const encodings = headers.getList('content-encoding');
  if (compression && encodings.length > 0 && wire.length > 0) {
    try {
      const decoded = await decodeContent(wire, encodings, maxSize);
      body = decoded.body;
      if (decoded.remaining.length === 0) headers.delete('content-encoding');
      else headers.set('Content-Encoding', decoded.remaining.join(', '));
    } catch (error) {
      if (error instanceof DecodedTooLarge) throw new MaxSizeError(request.url, { size: error.size, maxSize, stage: 'decompressed', compressed: wire.length, encoding: encodings.join(', ') });
      if (error instanceof ContentDecodingFailure) throw new DecompressionError(request.url, error.encoding, error.reason, { cause: error.cause });
      throw error;
    }
  }
  const response = new Response({
    // Without the fragment, as Scrapy's handler builds it: the fragment never went on the wire.
    url,
    status: res.statusCode ?? 0,
    headers,
    body,
    bodyFile,
    request,
    flags,
    ip: res.ip ?? res.socket?.remoteAddress ?? null,
    protocol: res.httpVersion === undefined ? null : `HTTP/${res.httpVersion}`,
  });
  // WARC_ENABLED: the archive records the body as it came (a body in a file came uncompressed: it is the file).
  if (keepWire && bodyFile === null) keepWireResponse(response, { statusText: res.statusMessage ?? '', headers: headerPairs(raw), body: wire });
  return response;
}

function headerPairs(raw: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

