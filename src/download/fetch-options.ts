import type { FetchFn, FetchOptions } from './fetch-contract.js';
import type { Settings } from '../settings/index.js';

/** The HTTP client's options (createNodeFetch, and createGotFetch for HTTP/2). */
export interface HttpFetchOptions {
  /** COMPRESSION_ENABLED: ask for and decode gzip/deflate/br. Default true. */
  compression?: boolean;
  /** DOWNLOAD_FAIL_ON_DATALOSS: false returns a broken body with flag 'dataloss' instead of failing. Default true. */
  failOnDataLoss?: boolean;
  /** Most sockets per origin (keep-alive pools); default Infinity, the throttle stage limits concurrency. */
  maxSocketsPerHost?: number;
  /** DOWNLOAD_MAXHEADERSIZE: most bytes of status line and headers; past it a HeadersTooLargeError. Default 1 MiB. */
  maxHeaderSize?: number;
  /** DOWNLOAD_LENIENT_HTTP: read malformed responses as browsers do (node's insecureHTTPParser). Default true. */
  lenientHttp?: boolean;
  /** WARC_ENABLED: keep each response's body as the server sent it (still compressed) and its status text, for the archive. Default false. */
  keepWire?: boolean;
  /**
   * H2DownloadHandler: HTTP/2 where the server offers it (ALPN), HTTP/1.1 otherwise; requests through a proxy stay
   * HTTP/1.1. Only createGotFetch reads it (createNodeFetch speaks HTTP/1.1). Default false.
   */
  http2?: boolean;
}

/** The factory's options from settings: COMPRESSION_ENABLED, DOWNLOAD_FAIL_ON_DATALOSS, DOWNLOAD_MAXHEADERSIZE, DOWNLOAD_LENIENT_HTTP, WARC_ENABLED. */
export function httpFetchOptionsFromSettings(settings: Settings): HttpFetchOptions {
  return {
    compression: settings.getBool('COMPRESSION_ENABLED'),
    failOnDataLoss: settings.getBool('DOWNLOAD_FAIL_ON_DATALOSS'),
    maxHeaderSize: settings.getInt('DOWNLOAD_MAXHEADERSIZE'),
    lenientHttp: settings.getBool('DOWNLOAD_LENIENT_HTTP'),
    keepWire: settings.getBool('WARC_ENABLED'),
  };
}

/** A FetchFn that also closes its keep-alive connections. */
export type HttpFetch = FetchFn & { close(): void };

/**
 * FetchOptions plus what the contract does not carry yet: Scrapy's
 * `meta.download_fail_on_dataloss` overrides DOWNLOAD_FAIL_ON_DATALOSS per request.
 */
export interface HttpFetchCallOptions extends FetchOptions {
  failOnDataLoss?: boolean;
}
