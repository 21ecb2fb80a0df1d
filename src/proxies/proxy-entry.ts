import { SettingsError } from '../settings/settings-error.js';

/** The proxy schemes the HTTP download handler can use (src/download/agent-pool.ts). */
export const POOL_PROXY_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'socks5', 'socks5h']);

/**
 * One proxy of the pool and its health. `url` keeps the credentials (it is
 * what goes into `meta.proxy`, where HttpProxyMiddleware takes them out);
 * `id` and `label` never hold them, so only those reach stats, logs, errors
 * and `meta._pool_proxy`.
 */
export class ProxyEntry {
  /** The URL as configured, credentials included. */
  readonly url: string;
  /** `scheme://host:port`, plus `#n` when two entries of the pool share it (two accounts at one gateway). */
  readonly id: string;
  /** `host:port`, the stats key (`proxies/<host:port>/requests`). */
  readonly label: string;
  /** Failures or bans in a row since the last success. */
  failuresInRow = 0;
  /** Epoch ms until which the proxy rests; 0 when awake. */
  restUntil = 0;

  constructor(url: string, id: string, label: string) {
    this.url = url;
    this.id = id;
    this.label = label;
  }

  isResting(now: number): boolean {
    return this.restUntil > now;
  }
}

/** Reads one PROXY_LIST / PROXY_TIERS entry; a bad one is a SettingsError that shows it without its password. */
export function parsePoolProxy(value: unknown, setting: string): { url: string; base: string; label: string } {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new SettingsError(`Setting ${setting} must list proxy URLs such as 'http://user:pass@host:8080', got ${JSON.stringify(value)}`);
  }
  const text = value.trim();
  const hasScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(text);
  // 'host:8080' may leave out the scheme; 'htp:/host' or 'http:host' is a typo, not a host named 'htp'.
  if (!hasScheme && /^[a-zA-Z][a-zA-Z0-9+.-]*:(?!\d)/.test(text)) {
    throw new SettingsError(`Setting ${setting} has '${redactProxy(text)}', which is not a proxy URL: give one such as 'http://user:pass@host:8080'`);
  }
  const withScheme = hasScheme ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new SettingsError(`Setting ${setting} has '${redactProxy(text)}', which is not a proxy URL: give one such as 'http://user:pass@host:8080'`);
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (!POOL_PROXY_SCHEMES.has(scheme)) {
    throw new SettingsError(`Setting ${setting} has '${redactProxy(text)}': the ${scheme} scheme is not supported; use http://, https://, socks5:// or socks5h://`);
  }
  if (url.hostname === '') throw new SettingsError(`Setting ${setting} has '${redactProxy(text)}', which names no host`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    throw new SettingsError(`Setting ${setting} has '${redactProxy(text)}': a proxy URL is a scheme, a host and a port, without a path ('http://user:pass@host:8080')`);
  }
  const port = url.port === '' ? (scheme === 'https' ? '443' : scheme === 'http' ? '80' : '1080') : url.port;
  const label = `${url.hostname}:${port}`;
  return { url: withScheme, base: `${scheme}://${label}`, label };
}

/** A proxy URL fit for a message: the user and password replaced. */
export function redactProxy(proxy: string): string {
  return proxy.replace(/(\/\/|^)[^/@]*@/, '$1***@');
}
