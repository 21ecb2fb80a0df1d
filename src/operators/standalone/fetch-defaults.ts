import type { FetchFn, FetchOptions } from '../../download/fetch-contract.js';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';

/** How the standalone operators call a FetchFn; defaults are Scrapy's (DOWNLOAD_TIMEOUT 180 s, DOWNLOAD_MAXSIZE 1 GiB, DOWNLOAD_WARNSIZE 32 MiB). */
export interface FetchSettings {
  /** The network function, e.g. `createGotFetch()`. */
  fetch: FetchFn;
  /** Set as `User-Agent` on requests that have none (and matched against robots.txt). */
  userAgent?: string;
  /** Milliseconds before a transfer fails with a timeout; default 180 000. */
  timeoutMs?: number;
  /** Largest body in bytes, 0 for no limit; default 1 GiB. */
  maxSize?: number;
  /** Body size in bytes that logs a warning, 0 for none; default 32 MiB. */
  warnSize?: number;
  /** Proxy URL for every request; default none. */
  proxy?: string | null;
}

/** Calls `settings.fetch` for `request` with the defaults filled in and `signal` attached. */
export function fetchWith(settings: FetchSettings, request: Request, signal: AbortSignal): Promise<Response> {
  const options: FetchOptions = {
    signal,
    timeoutMs: settings.timeoutMs ?? 180_000,
    maxSize: settings.maxSize ?? 1024 * 1024 * 1024,
    warnSize: settings.warnSize ?? 32 * 1024 * 1024,
    proxy: settings.proxy ?? null,
  };
  const sent = settings.userAgent !== undefined && !request.headers.has('User-Agent')
    ? request.replace({ headers: request.headers.copy().set('User-Agent', settings.userAgent) })
    : request;
  return settings.fetch(sent, options);
}
