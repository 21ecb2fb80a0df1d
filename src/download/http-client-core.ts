import type { Request } from '../http/request.js';
import { DEFAULT_SETTINGS } from '../settings/default-settings.js';
import type { FetchOptions } from './fetch-contract.js';
import type { HttpFetchOptions } from './fetch-options.js';
import { AgentPool } from './agent-pool.js';
import { DownloadError, TimeoutError } from './download-errors.js';
import { allowManyListeners } from './many-listeners.js';
import { StaleSocket } from './response-receiver.js';

/**
 * What both HTTP clients (createNodeFetch in fetch-node.ts, createGotFetch in
 * fetch-got.ts) do whatever carries the bytes, written once so that the two
 * cannot drift apart: their options' defaults, which requests carry a body,
 * one deadline and abort listener over all of a download's attempts, and
 * another attempt when a kept-alive socket turns out closed. fetch-node.ts
 * runs once per page, so the per-download functions are plain functions on
 * the caller's values: they allocate nothing the download did not already.
 */

/** A client's options with the defaults HttpFetchOptions documents, and its keep-alive pools. */
export function clientOptions(options: HttpFetchOptions): { compression: boolean; keepWire: boolean; failOnDataLoss: boolean; agents: AgentPool; maxHeaderSize: number; lenient: boolean } {
  return {
    compression: options.compression ?? true,
    keepWire: options.keepWire ?? false,
    failOnDataLoss: options.failOnDataLoss ?? true,
    agents: new AgentPool(options.maxSocketsPerHost ?? Infinity),
    maxHeaderSize: options.maxHeaderSize ?? DEFAULT_SETTINGS.DOWNLOAD_MAXHEADERSIZE,
    lenient: options.lenientHttp ?? DEFAULT_SETTINGS.DOWNLOAD_LENIENT_HTTP,
  };
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** Whether the request's body goes on the wire; throws for a HEAD request with one. */
export function sendsBody(request: Request): boolean {
  // Twisted sends no body (and no Content-Length) for an empty body, except Content-Length: 0 for POST/PUT/PATCH.
  if (request.body.length === 0 && !METHODS_WITH_BODY.has(request.method)) return false;
  if (request.method === 'HEAD') throw new DownloadError(request.url, `Cannot send a body with a HEAD request to ${request.url}: remove the body or use another method.`);
  return true;
}

/**
 * Listens for the caller's abort (`onAbort`) and starts DOWNLOAD_TIMEOUT's
 * one deadline for connect, response and body over every attempt; the timer
 * returned goes to disarmDeadline.
 */
export function armDeadline(url: string, options: FetchOptions, onAbort: () => void, fail: (error: DownloadError) => void): NodeJS.Timeout | null {
  allowManyListeners(options.signal);
  options.signal.addEventListener('abort', onAbort, { once: true });
  // The timer's arguments rather than a closure over them: this function then allocates no scope of its own per download.
  return options.timeoutMs > 0 ? setTimeout(failOnTimeout, options.timeoutMs, fail, url, options.timeoutMs) : null;
}

function failOnTimeout(fail: (error: DownloadError) => void, url: string, timeoutMs: number): void {
  fail(new TimeoutError(url, timeoutMs));
}

/** The download is settled: its deadline and abort listener go. */
export function disarmDeadline(timer: NodeJS.Timeout | null, options: FetchOptions, onAbort: () => void): void {
  if (timer !== null) clearTimeout(timer);
  options.signal.removeEventListener('abort', onAbort);
}

/**
 * After a failed attempt: returns when another is worth it (a stale
 * keep-alive socket under an idempotent method), and throws what the
 * download fails with otherwise: the deadline's or abort's `failure` first.
 */
export function throwUnlessStaleSocketRetry(error: unknown, attempt: number, method: string, failure: DownloadError | null): void {
  if (failure !== null) throw failure;
  // Up to two fresh tries: several pooled sockets can have gone stale at once.
  if (attempt < 3 && error instanceof StaleSocket && IDEMPOTENT.has(method)) return;
  throw error instanceof StaleSocket ? error.mapped : error;
}
