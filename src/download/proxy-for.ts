/**
 * Which proxy the environment asks for, as Scrapy's HttpProxyMiddleware
 * reads it through Python's urllib: `<scheme>_proxy` variables (lower case
 * wins over upper case; HTTP_PROXY is ignored under CGI, where a client can
 * set it through a `Proxy:` header), and `no_proxy`, a comma-separated list
 * of host names and domain suffixes, or `*` for every host.
 */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

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
  const proxy = proxies.get(scheme);
  if (proxy === undefined) return null;
  // urllib applies no_proxy to http(s) URLs only.
  if ((scheme === 'http' || scheme === 'https') && bypassesProxy(parsed, proxies.get('no'))) return null;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(proxy) ? proxy : `${scheme}://${proxy}`;
}

/** scheme → value of every non-empty `<scheme>_proxy` variable, urllib's precedence. */
export function proxiesFromEnv(env: ProxyEnv): Map<string, string> {
  const proxies = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value && name.toLowerCase().endsWith('_proxy')) proxies.set(name.slice(0, -6).toLowerCase(), value);
  }
  if (env['REQUEST_METHOD'] !== undefined) proxies.delete('http');
  // Second pass: an all-lowercase variable wins, and an empty one unsets.
  for (const [name, value] of Object.entries(env)) {
    if (!name.endsWith('_proxy')) continue;
    const scheme = name.slice(0, -6).toLowerCase();
    if (value) proxies.set(scheme, value);
    else proxies.delete(scheme);
  }
  return proxies;
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
