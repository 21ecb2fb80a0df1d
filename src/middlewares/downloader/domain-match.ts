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

/** The host of a URL without its port, lower-cased ('' when it has none). */
export function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
