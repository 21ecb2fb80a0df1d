/**
 * The proxy variables of an environment, as Python's urllib reads them
 * (Scrapy's HttpProxyMiddleware, and seine's downloader for a request the
 * middleware did not see, both follow it).
 */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/**
 * `scheme → proxy URL` from `<scheme>_proxy` variables (any case; the
 * lower-case name wins, an empty lower-case value removes the scheme), and
 * `no_proxy` under the key `no`, as urllib's getproxies_environment. Under
 * CGI (`REQUEST_METHOD` set) `HTTP_PROXY` is ignored: a client can set it
 * through a `Proxy:` request header.
 */
export function proxiesFromEnv(env: ProxyEnv): Record<string, string> {
  const proxies: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const lower = name.toLowerCase();
    if (value && lower.endsWith('_proxy')) proxies[lower.slice(0, -6)] = value;
  }
  if ('REQUEST_METHOD' in env) delete proxies.http;
  // Second pass: an all-lowercase variable wins, and an empty one unsets.
  for (const [name, value] of Object.entries(env)) {
    if (!name.endsWith('_proxy')) continue;
    const key = name.toLowerCase().slice(0, -6);
    if (value) proxies[key] = value;
    else delete proxies[key];
  }
  return proxies;
}
