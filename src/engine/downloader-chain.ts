import { Request, isRequest } from '../http/request.js';
import { Response } from '../http/response.js';
import type { Spider } from '../contracts/spider.js';
import type { DownloaderMiddleware } from '../contracts/components.js';

/** What the download path gives for one request: a response, a new request to schedule instead, or an error. */
export type DownloadOutcome =
  | { kind: 'response'; request: Request; response: Response }
  | { kind: 'request'; request: Request; next: Request }
  | { kind: 'error'; request: Request; error: Error };

import { DOWNLOAD_LATENCY } from '../http/request-meta.js';

/**
 * The fetch as Scrapy's downloader runs its download handler: a response
 * that came from the network gets `meta.download_latency` (seconds from the
 * start of the fetch until it resolved) and is announced through
 * `onDownloaded` (the `response_downloaded` event) before the middlewares'
 * processResponse see it. A failed fetch records nothing. Scrapy stops the
 * clock when the headers arrive; seine's fetch resolves once the body is in,
 * so the latency also counts the body's transfer (the same for small pages).
 */
export function measuredFetch(
  fetch: (request: Request) => Promise<Response>,
  onDownloaded: (request: Request, response: Response) => void,
  now: () => number = Date.now,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const started = now();
    const response = await fetch(request);
    request.meta[DOWNLOAD_LATENCY] = (now() - started) / 1000;
    onDownloaded(request, response);
    return response;
  };
}

/**
 * Scrapy's downloader middleware contract around one fetch: processRequest
 * in order (a Response short-cuts the download, a Request reschedules),
 * processException in reverse order when the fetch or a processRequest
 * fails, processResponse in reverse order on the way back.
 */
export async function downloadThrough(
  middlewares: readonly DownloaderMiddleware[],
  request: Request,
  spider: Spider,
  fetch: (request: Request) => Promise<Response>,
): Promise<DownloadOutcome> {
  let response: Response | null = null;
  try {
    for (const mw of middlewares) {
      if (mw.processRequest === undefined) continue;
      const result = await mw.processRequest(request, spider);
      if (result instanceof Response) {
        response = result;
        break;
      }
      if (isRequest(result)) return { kind: 'request', request, next: result };
    }
    response ??= await fetch(request);
  } catch (thrown) {
    const error = asError(thrown);
    const recovered = await recover(middlewares, request, error, spider);
    if (recovered === null) return { kind: 'error', request, error };
    if (isRequest(recovered)) return { kind: 'request', request, next: recovered };
    response = recovered;
  }
  try {
    for (let i = middlewares.length - 1; i >= 0; i--) {
      const mw = middlewares[i]!;
      if (mw.processResponse === undefined) continue;
      const result = await mw.processResponse(request, response, spider);
      if (isRequest(result)) return { kind: 'request', request, next: result };
      response = result;
    }
  } catch (thrown) {
    return { kind: 'error', request, error: asError(thrown) };
  }
  return { kind: 'response', request, response };
}

async function recover(
  middlewares: readonly DownloaderMiddleware[],
  request: Request,
  error: Error,
  spider: Spider,
): Promise<Request | Response | null> {
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const mw = middlewares[i]!;
    if (mw.processException === undefined) continue;
    const result = await mw.processException(request, error, spider);
    if (result instanceof Response || isRequest(result)) return result;
  }
  return null;
}

export function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
