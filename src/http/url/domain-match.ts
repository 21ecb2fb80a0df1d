import { plainUrlHost } from './safe-url-string.js';

/**
 * True when `url`'s host is `domain` or one of its subdomains, Scrapy's
 * url_is_from_any_domain. Scrapy compares the netloc, so a URL with an
 * explicit port never matched a bare domain (no credentials were sent to
 * `http://127.0.0.1:8080/`); here the host matches a bare domain and the
 * netloc matches a domain written with its port.
 */
export function isUrlFromDomain(url: string, domain: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const wanted = domain.toLowerCase();
  for (const host of [parsed.hostname.toLowerCase(), parsed.host.toLowerCase()]) {
    if (host !== '' && (host === wanted || host.endsWith(`.${wanted}`))) return true;
  }
  return false;
}

/**
 * The URL's host as Python's `urlparse().hostname` gives it: lower-case,
 * IPv6 without brackets; null when there is none. The offsite filter and
 * HttpAuthMiddleware's default domain both read it.
 */
export function hostnameOf(url: string): string | null {
  const plain = plainUrlHost(url);
  if (plain !== null) return plain;
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return null;
  }
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);
  return hostname === '' ? null : hostname;
}
