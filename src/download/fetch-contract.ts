import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';

/**
 * The one function that talks to the network (src/download/fetch-node.ts,
 * or fetch-got.ts for HTTP/2: the only module that imports got, see
 * docs/contributing.md); every stage receives it as an option so that tests
 * can pass a fake.
 */
export interface FetchOptions {
  /** Aborts the transfer (unsubscribing from a crawl, a forced shutdown). */
  signal: AbortSignal;
  /** DOWNLOAD_TIMEOUT in milliseconds (meta.download_timeout overrides, in seconds). */
  timeoutMs: number;
  /** DOWNLOAD_MAXSIZE in bytes; 0 = no limit. A larger body fails with a MaxSizeError. */
  maxSize: number;
  /** DOWNLOAD_WARNSIZE in bytes; 0 = no warning. */
  warnSize: number;
  /**
   * Called once when a body passes warnSize: announced by Content-Length
   * (`expected`), counted as it arrives (`received`), or once decoded from
   * its Content-Encoding (`decompressed`, only when the wire bytes stayed
   * under warnSize).
   */
  onWarnSize?: (size: number, stage: WarnSizeStage) => void;
  /** Proxy URL (meta.proxy, or from http_proxy/https_proxy), or null. */
  proxy: string | null;
  /**
   * A folder to stream a 200 response's body into, as a temporary file the
   * response carries (`response.bodyFile`) instead of `body`: set for
   * requests with `meta.body_to_file` (the media pipelines). Whoever takes
   * the response removes the file.
   */
  bodyDir?: string | null;
}

/** Where a body passed DOWNLOAD_WARNSIZE. */
export type WarnSizeStage = 'expected' | 'received' | 'decompressed';

export type FetchFn = (request: Request, options: FetchOptions) => Promise<Response>;
