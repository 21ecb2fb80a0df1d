import type { OptionsInit } from 'got';
import { httpFetchOptionsFromSettings, type HttpFetchOptions } from './fetch-options.js';
import { lookupHost } from './invalid-lookup.js';

/** createGotFetch's options: the HTTP client's (fetch-options.ts), under the name they had when got carried every download. */
export type GotFetchOptions = HttpFetchOptions;
/** The same as httpFetchOptionsFromSettings. */
export const gotFetchOptionsFromSettings = httpFetchOptionsFromSettings;

/**
 * The options seine's HTTP/2 downloader extends got with (fetch-got.ts,
 * which re-exports this): no retries, redirects, HTTP errors, no
 * decompression by got (fetch-got.ts decodes the wire bytes itself),
 * `.invalid` hosts failing without a DNS query, certificates unchecked.
 *
 * A module of its own, importing only got's types, so that
 * bench/download/clients.ts can give its plain got client the same options
 * without loading the rest of the downloader (its RSS column is the
 * library's cost); got is loaded only by fetch-got.ts.
 */
export function seineGotOptions(): OptionsInit {
  return {
    retry: { limit: 0 },
    followRedirect: false,
    throwHttpErrors: false,
    decompress: false,
    http2: false,
    dnsLookup: lookupHost as unknown as NonNullable<OptionsInit['dnsLookup']>,
    https: { rejectUnauthorized: false },
  };
}
