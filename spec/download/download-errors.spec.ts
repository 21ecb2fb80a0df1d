import { describe, expect, it } from '@jest/globals';
import * as errors from '../../src/download/download-errors.js';
import { SeineError } from '../../src/errors/seine-error.js';

const url = 'http://example.com/page';

describe('download errors', () => {
  it('are SeineErrors with distinct SEINE_ codes, their class name as name, and the request URL', () => {
    const made = [
      new errors.DownloadError(url, 'm'),
      new errors.ConnectionRefusedError(url, '127.0.0.1:1'),
      new errors.DnsLookupError(url, 'example.com'),
      new errors.TimeoutError(url, 180_000),
      new errors.ConnectionLostError(url, { responseReceived: false, received: 0, expected: null, reason: 'socket hang up' }),
      new errors.DecompressionError(url, 'gzip', 'incorrect header check'),
      new errors.MaxSizeError(url, { size: 2, maxSize: 1, stage: 'expected' }),
      new errors.AbortError(url),
      new errors.TunnelError(url, 'proxy:3128', 407, 'Proxy Authentication Required'),
      new errors.InvalidProxyError(url, 'socks5://proxy:1080', 'the socks5 scheme is not supported'),
      new errors.UnsupportedSchemeError(url, 'ftp'),
    ];
    expect(made.map((error) => [error instanceof SeineError, error.name, error.code, error.url])).toEqual([
      [true, 'DownloadError', 'SEINE_DOWNLOAD_FAILED', url],
      [true, 'ConnectionRefusedError', 'SEINE_CONNECTION_REFUSED', url],
      [true, 'DnsLookupError', 'SEINE_DNS_LOOKUP_FAILED', url],
      [true, 'TimeoutError', 'SEINE_DOWNLOAD_TIMEOUT', url],
      [true, 'ConnectionLostError', 'SEINE_CONNECTION_LOST', url],
      [true, 'DecompressionError', 'SEINE_DECOMPRESSION_FAILED', url],
      [true, 'MaxSizeError', 'SEINE_MAX_SIZE_EXCEEDED', url],
      [true, 'AbortError', 'SEINE_DOWNLOAD_ABORTED', url],
      [true, 'TunnelError', 'SEINE_PROXY_TUNNEL_FAILED', url],
      [true, 'InvalidProxyError', 'SEINE_INVALID_PROXY', url],
      [true, 'UnsupportedSchemeError', 'SEINE_UNSUPPORTED_SCHEME', url],
    ]);
    expect(made.map((error) => (error.constructor as typeof errors.DownloadError).code)).toEqual(made.map((error) => error.code));
  });

  it("words timeouts as Scrapy does, in seconds as given", () => {
    expect([new errors.TimeoutError(url, 180_000).message, new errors.TimeoutError(url, 2500).message]).toEqual([
      'Getting http://example.com/page took longer than 180 seconds.',
      'Getting http://example.com/page took longer than 2.5 seconds.',
    ]);
  });

  it('words a DNS failure as Scrapy does', () => {
    expect(new errors.DnsLookupError('http://index.html/', 'index.html').message).toBe("DNS lookup failed: address 'index.html' not found");
  });

  it('says how much of the body came when the connection was lost, and how much was announced', () => {
    const lost = (expected: number | null): string =>
      new errors.ConnectionLostError(url, { responseReceived: true, received: 10, expected, reason: 'aborted' }).message;
    expect([lost(20), lost(null)]).toEqual([
      'Connection to the other side was lost in a non-clean fashion after 10 of 20 bytes of the body of http://example.com/page (aborted). Set DOWNLOAD_FAIL_ON_DATALOSS = false to process broken responses.',
      'Connection to the other side was lost in a non-clean fashion after 10 bytes of the body of http://example.com/page (aborted). Set DOWNLOAD_FAIL_ON_DATALOSS = false to process broken responses.',
    ]);
  });

  it('words a refused tunnel without a status when the proxy gave none', () => {
    expect(new errors.TunnelError(url, 'proxy:3128', null, 'the proxy closed the connection before answering CONNECT').message).toBe(
      "Could not open CONNECT tunnel with proxy proxy:3128 for http://example.com/page: the proxy closed the connection before answering CONNECT. Check the proxy's address and credentials.",
    );
  });
});
