import dns from 'node:dns';
import type { OptionsInit } from 'got';
import type { Settings } from '../settings/index.js';

export interface GotFetchOptions {
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
  /** H2DownloadHandler: HTTP/2 where the server offers it (ALPN), HTTP/1.1 otherwise; requests through a proxy stay HTTP/1.1. Default false. */
  http2?: boolean;
}

/** The factory's options from settings: COMPRESSION_ENABLED, DOWNLOAD_FAIL_ON_DATALOSS, DOWNLOAD_MAXHEADERSIZE, DOWNLOAD_LENIENT_HTTP, WARC_ENABLED. */
export function gotFetchOptionsFromSettings(settings: Settings): GotFetchOptions {
  return {
    compression: settings.getBool('COMPRESSION_ENABLED'),
    failOnDataLoss: settings.getBool('DOWNLOAD_FAIL_ON_DATALOSS'),
    maxHeaderSize: settings.getInt('DOWNLOAD_MAXHEADERSIZE'),
    lenientHttp: settings.getBool('DOWNLOAD_LENIENT_HTTP'),
    keepWire: settings.getBool('WARC_ENABLED'),
  };
}

/**
 * The options seine's downloader extends got with (fetch-got.ts, which
 * re-exports this): no retries, redirects, HTTP errors or HTTP/2, no
 * decompression by got (fetch-got.ts decodes the wire bytes itself),
 * `.invalid` hosts failing without a DNS query, certificates unchecked.
 *
 * A module of its own, importing only got's types, so that the crawler can
 * read its options without loading got (handlers/http-handler.ts loads it with the
 * first download), and bench/download/clients.ts can give its plain got
 * client the same options without loading the rest of the downloader (its
 * RSS column is the library's cost); got is loaded only by fetch-got.ts.
 */
export function seineGotOptions(): OptionsInit {
  return {
    retry: { limit: 0 },
    followRedirect: false,
    throwHttpErrors: false,
    decompress: false,
    http2: false,
    dnsLookup: lookup,
    https: { rejectUnauthorized: false },
  };
}

/** RFC 6761: `.invalid` names never resolve, so answer at once without asking a DNS server (tests rely on it). */
const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void): void => {
  if (/(^|\.)invalid\.?$/i.test(hostname)) {
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname });
    process.nextTick(callback, error);
    return;
  }
  dns.lookup(hostname, options, callback as never);
}) as unknown as NonNullable<OptionsInit['dnsLookup']>;
