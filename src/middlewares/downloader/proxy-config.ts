import { SettingsError } from '../../settings/index.js';
import { ProxyUrlError } from './proxy-url-error.js';

/**
 * Proxy URLs as Python's urllib reads them (what Scrapy's
 * HttpProxyMiddleware uses): `<scheme>_proxy` environment variables, proxy
 * URLs with or without a scheme and credentials, and `no_proxy`.
 */

export interface ParsedProxy {
  /** `scheme://host:port`, without credentials. */
  url: string;
  /** The user and password in the URL, percent-decoded; null when it has none. */
  user: string | null;
  password: string | null;
}

/**
 * Splits a proxy URL: `http://user:pass@proxy:8080`, `proxy:8080`,
 * `user:pass@proxy:8080`. A URL without a scheme takes `defaultScheme`.
 * Throws a ProxyUrlError for a URL with a scheme but no `//host` (a socket path
 * such as `/var/run/docker.sock` set as a proxy), as urllib's _parse_proxy.
 */
export function parseProxyUrl(proxy: string, defaultScheme: string): ParsedProxy {
  const typed = /^([^/:]+):(.*)$/s.exec(proxy);
  const rest = typed === null ? proxy : typed[2]!;
  let scheme: string | null = null;
  let authority = proxy;
  if (rest.startsWith('/')) {
    if (!rest.startsWith('//')) throw new ProxyUrlError(proxy);
    scheme = typed === null ? null : typed[1]!;
    const at = rest.indexOf('@');
    const end = rest.indexOf('/', at === -1 ? 2 : at);
    authority = rest.slice(2, end === -1 ? undefined : end);
  }
  const at = authority.lastIndexOf('@');
  const hostport = at === -1 ? authority : authority.slice(at + 1);
  let user: string | null = null;
  let password: string | null = null;
  if (at !== -1) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    user = decodeURIComponentSafe(colon === -1 ? userinfo : userinfo.slice(0, colon));
    password = colon === -1 ? null : decodeURIComponentSafe(userinfo.slice(colon + 1));
  }
  return { url: `${(scheme ?? defaultScheme).toLowerCase()}://${hostport}`, user, password };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Whether a host is exempt from proxies by a `no_proxy` value: `*`, or a
 * comma-separated list of names (leading dots ignored) that match the host
 * and its subdomains, as urllib's proxy_bypass_environment. `host` may carry
 * a port (`example.com:8080`, `[::1]:8080`, as URL.host gives it): an entry
 * with a port matches only that port, one without matches every port.
 */
export function bypassesProxy(host: string, noProxy: string | undefined): boolean {
  if (noProxy === undefined || noProxy === '') return false;
  if (noProxy.trim() === '*') return true;
  const full = host.toLowerCase();
  const hostOnly = hostWithoutPort(full);
  for (const entry of noProxy.split(',')) {
    const name = entry.trim().replace(/^\.+/, '').toLowerCase();
    if (name === '') continue;
    const bare = name.replace(/^\[(.*)\]$/, '$1');
    if (hostOnly === bare || full === name) return true;
    if (hostOnly.endsWith(`.${name}`) || full.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** `example.com:8080` → `example.com`, `[::1]:8080` and `[::1]` → `::1`; a bare IPv6 address stays whole. */
function hostWithoutPort(host: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(host);
  if (bracketed !== null) return bracketed[1]!;
  const colon = host.indexOf(':');
  return colon !== -1 && colon === host.lastIndexOf(':') ? host.slice(0, colon) : host;
}

/** HTTPPROXY_AUTH_ENCODING as a Buffer encoding: Python's names for latin-1, UTF-8 and ASCII. */
export function authEncoding(name: string, source = 'HTTPPROXY_AUTH_ENCODING'): BufferEncoding {
  const key = name.toLowerCase().replace(/[-_\s]/g, '');
  if (key === 'latin1' || key === 'iso88591' || key === 'l1') return 'latin1';
  if (key === 'utf8') return 'utf8';
  if (key === 'ascii' || key === 'usascii') return 'ascii';
  throw new SettingsError(`Setting ${source} expects latin-1, utf-8 or ascii, got '${name}'`);
}
