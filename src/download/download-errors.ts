import { SeineError } from '../errors/seine-error.js';

/**
 * Why a download failed, in Twisted's/Scrapy's categories so that a Scrapy
 * user recognises them in logs and in the stats key
 * `downloader/exception_type_count/<error.name>`. Every failure of
 * createNodeFetch() and createGotFetch() is one of these (or an AbortError):
 * no Node or got error class leaves src/download/, the original is kept as
 * `cause`.
 */
export class DownloadError extends SeineError {
  // Typed `string`, not the literal, so that each subclass can declare its own code.
  static readonly code: string = 'SEINE_DOWNLOAD_FAILED';
  /** The URL of the request that failed. */
  readonly url: string;

  constructor(url: string, message: string, options?: { cause?: unknown }) {
    super((new.target as typeof DownloadError).code, message, options);
    this.url = url;
  }
}

/** Nothing listens at the address (Twisted's ConnectionRefusedError). */
export class ConnectionRefusedError extends DownloadError {
  static override readonly code: string = 'SEINE_CONNECTION_REFUSED';
  readonly address: string;

  constructor(url: string, address: string, options?: { cause?: unknown }) {
    super(url, `Connection was refused by other side: ${address} (getting ${url}). Check that the server is running and listens on that port.`, options);
    this.address = address;
  }
}

/**
 * The host name does not resolve. The message is Scrapy's wording, which
 * docs/shell.md shows for `seine shell index.html`; `url` names the request.
 */
export class DnsLookupError extends DownloadError {
  static override readonly code: string = 'SEINE_DNS_LOOKUP_FAILED';
  readonly host: string;

  constructor(url: string, host: string, options?: { cause?: unknown }) {
    super(url, `DNS lookup failed: address '${host}' not found`, options);
    this.host = host;
  }
}

/** The whole download (connect, response, body) took longer than DOWNLOAD_TIMEOUT. */
export class TimeoutError extends DownloadError {
  static override readonly code: string = 'SEINE_DOWNLOAD_TIMEOUT';
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(url, `Getting ${url} took longer than ${timeoutMs / 1000} seconds.`, options);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The connection closed or was reset: before the response came
 * (Twisted's ResponseNeverReceived) or in the middle of the body
 * (ResponseFailed with data loss).
 */
export class ConnectionLostError extends DownloadError {
  static override readonly code: string = 'SEINE_CONNECTION_LOST';
  /** Whether the status line and headers had arrived. */
  readonly responseReceived: boolean;
  /** Body bytes received before the loss. */
  readonly received: number;
  /** Content-Length, when the server sent one. */
  readonly expected: number | null;

  constructor(url: string, details: { responseReceived: boolean; received: number; expected: number | null; reason: string }, options?: { cause?: unknown }) {
    const message = details.responseReceived
      ? `Connection to the other side was lost in a non-clean fashion after ${details.received}${details.expected === null ? '' : ` of ${details.expected}`} bytes of the body of ${url} (${details.reason}). Set DOWNLOAD_FAIL_ON_DATALOSS = false to process broken responses.`
      : `Connection to the other side was lost before a response was received from ${url} (${details.reason}).`;
    super(url, message, options);
    this.responseReceived = details.responseReceived;
    this.received = details.received;
    this.expected = details.expected;
  }
}

/**
 * The server's answer is not valid HTTP/1.1 (node's parser failed with an
 * `HPE_*` code): a malformed status line or header, or bytes beyond the
 * announced Content-Length where the next response should start.
 */
export class InvalidResponseError extends DownloadError {
  static override readonly code: string = 'SEINE_INVALID_HTTP_RESPONSE';
  /** The parser's code, e.g. `HPE_INVALID_CONSTANT`. */
  readonly parserCode: string;

  constructor(url: string, parserCode: string, reason: string, options?: { cause?: unknown }) {
    super(url, `Invalid HTTP response from ${url} (${parserCode}: ${reason}): the server does not speak HTTP/1.1 correctly (a malformed header, or more body bytes than its Content-Length announced).`, options);
    this.parserCode = parserCode;
  }
}

/** The response's status line and headers together pass DOWNLOAD_MAXHEADERSIZE (node's parser stopped with HPE_HEADER_OVERFLOW). */
export class HeadersTooLargeError extends DownloadError {
  static override readonly code: string = 'SEINE_HEADERS_TOO_LARGE';
  readonly maxHeaderSize: number;

  constructor(url: string, maxHeaderSize: number, options?: { cause?: unknown }) {
    super(url, `Response headers of ${url} exceed DOWNLOAD_MAXHEADERSIZE (${maxHeaderSize} bytes): raise it with -s DOWNLOAD_MAXHEADERSIZE=${maxHeaderSize * 4} (or in settings) to accept them.`, options);
    this.maxHeaderSize = maxHeaderSize;
  }
}

/** The body does not decode with its Content-Encoding (a corrupt gzip, deflate or br stream). */
export class DecompressionError extends DownloadError {
  static override readonly code: string = 'SEINE_DECOMPRESSION_FAILED';
  readonly encoding: string;

  constructor(url: string, encoding: string, reason: string, options?: { cause?: unknown }) {
    super(url, `Could not decode the ${encoding} body of ${url}: ${reason}. The server sent a corrupt body; set COMPRESSION_ENABLED = false to receive it undecoded.`, options);
    this.encoding = encoding;
  }
}

/**
 * The body is larger than DOWNLOAD_MAXSIZE: announced by Content-Length
 * (`expected`), counted while streaming (`received`), or counted while its
 * Content-Encoding was undone (`decompressed`: `size` is the decoded count
 * when inflating stopped, just past the limit; `compressed` the wire bytes).
 */
export class MaxSizeError extends DownloadError {
  static override readonly code: string = 'SEINE_MAX_SIZE_EXCEEDED';
  readonly size: number | null;
  readonly maxSize: number;
  readonly stage: 'expected' | 'received' | 'decompressed';

  constructor(url: string, details: { size: number | null; maxSize: number; stage: 'expected' | 'received' | 'decompressed'; method?: string; compressed?: number; encoding?: string }) {
    const hint = 'Raise DOWNLOAD_MAXSIZE or set meta.download_maxsize (0 = no limit) to accept it.';
    const what = details.stage === 'expected'
      ? `Cancelling download of ${url}: expected response size (${details.size}) larger than download max size (${details.maxSize}).`
      : details.stage === 'received'
        ? `Received (${details.size}) bytes larger than download max size (${details.maxSize}) in request <${details.method ?? 'GET'} ${url}>.`
        : `Cancelling download of ${url}: decompressed response size (at least ${details.size ?? details.maxSize + 1}${details.compressed === undefined ? '' : `, from ${details.compressed} bytes of ${details.encoding ?? 'compressed'} body`}) larger than download max size (${details.maxSize}).`;
    super(url, `${what} ${hint}`);
    this.size = details.size;
    this.maxSize = details.maxSize;
    this.stage = details.stage;
  }
}

/** The caller's AbortSignal fired (the crawl was cancelled or forced to stop); `cause` is the signal's reason. */
export class AbortError extends DownloadError {
  static override readonly code: string = 'SEINE_DOWNLOAD_ABORTED';

  constructor(url: string, options?: { cause?: unknown }) {
    super(url, `Download of ${url} was aborted.`, options);
  }
}

/** The proxy refused a CONNECT tunnel for an https:// URL (Scrapy's TunnelError). */
export class TunnelError extends DownloadError {
  static override readonly code: string = 'SEINE_PROXY_TUNNEL_FAILED';
  readonly status: number | null;

  constructor(url: string, proxy: string, status: number | null, reason: string) {
    super(url, `Could not open CONNECT tunnel with proxy ${proxy} for ${url}: ${status === null ? reason : `${status} ${reason}`}. Check the proxy's address and credentials.`);
    this.status = status;
  }
}

/** A proxy URL seine cannot use (not http://, https://, socks5:// or socks5h://, or not a URL). */
export class InvalidProxyError extends DownloadError {
  static override readonly code: string = 'SEINE_INVALID_PROXY';
  readonly proxy: string;

  constructor(url: string, proxy: string, reason: string) {
    super(url, `Cannot use proxy '${proxy}' for ${url}: ${reason}. Give an http://, https://, socks5:// or socks5h:// proxy URL such as 'http://127.0.0.1:3128'.`);
    this.proxy = proxy;
  }
}

/** A URL scheme no handler downloads (Scrapy's NotSupported): seine fetches http, https, file and data URLs. */
export class UnsupportedSchemeError extends DownloadError {
  static override readonly code: string = 'SEINE_UNSUPPORTED_SCHEME';
  readonly scheme: string;

  constructor(url: string, scheme: string) {
    super(url, `Unsupported URL scheme '${scheme}' in ${url}: seine downloads http, https, file and data URLs.`);
    this.scheme = scheme;
  }
}
