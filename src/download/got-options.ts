import dns from 'node:dns';
import type { OptionsInit } from 'got';

/**
 * The options seine's downloader extends got with (fetch-got.ts, which
 * re-exports this): no retries, redirects, HTTP errors or HTTP/2, no
 * decompression by got (fetch-got.ts decodes the wire bytes itself),
 * `.invalid` hosts failing without a DNS query, certificates unchecked.
 *
 * A module of its own, importing only got's types, so that
 * bench/download/clients.ts can give its plain got client the same options
 * without loading the rest of the downloader (its RSS column is the
 * library's cost); got itself is still loaded only by fetch-got.ts.
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
