import { proxiesFromEnv, type ProxyEnv } from '../http/proxy-env.js';

/**
 * The proxy URL for `url` from `env`, or null when there is none or
 * no_proxy exempts the host. A value without a scheme (`127.0.0.1:3128`)
 * gets the URL's scheme, as urllib gives it. Credentials stay in the URL;
 * the downloader turns them into Proxy-Authorization.
 */
export function proxyFor(url: string, env: ProxyEnv = process.env): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const scheme = parsed.protocol.slice(0, -1);
  const proxies = proxiesFromEnv(env);
  const proxy = Object.hasOwn(proxies, scheme) ? proxies[scheme] : undefined;
  if (proxy === undefined) return null;
  // urllib applies no_proxy to http(s) URLs only.
  if ((scheme === 'http' || scheme === 'https') && bypassesProxy(parsed, proxies['no'])) return null;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(proxy) ? proxy : `${scheme}://${proxy}`;
}

/** urllib's proxy_bypass_environment: exact host or domain-suffix match, with or without the port. */
function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (noProxy === undefined) return false;
  if (noProxy.trim() === '*') return true;
  const hostOnly = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const hostPort = url.port === '' ? hostOnly : `${hostOnly}:${url.port}`;
  for (const entry of noProxy.split(',')) {
    const name = entry.trim().replace(/^\.+/, '').toLowerCase();
    if (name === '') continue;
    if (hostOnly === name || hostPort === name) return true;
    if (hostOnly.endsWith(`.${name}`) || hostPort.endsWith(`.${name}`)) return true;
  }
  return false;
}
