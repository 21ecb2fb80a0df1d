import type { DownloaderMiddleware } from '../../contracts/components.js';
import { NotConfigured } from '../../contracts/control-flow.js';
import type { Crawler } from '../../contracts/crawler.js';
import type { Request } from '../../http/request.js';
import { authEncoding, bypassesProxy, parseProxyUrl } from './proxy-config.js';
import { proxiesFromEnv } from '../../http/proxy-env.js';

export interface HttpProxyOptions {
  /** Scheme → proxy URL (`{ https: 'http://user:pass@proxy:8080' }`). Default: the `<scheme>_proxy` environment variables. */
  proxies?: Readonly<Record<string, string>>;
  /** Hosts reached without proxy, as `no_proxy`. Default: the `no_proxy` environment variable. */
  noProxy?: string;
  /** HTTPPROXY_AUTH_ENCODING for credentials: 'latin1' (default), 'utf8' or 'ascii'. */
  authEncoding?: BufferEncoding;
}

interface ProxyEntry {
  url: string;
  /** `Basic …` for Proxy-Authorization, or null. */
  auth: string | null;
}

/**
 * Routes requests through proxies (Scrapy's HttpProxyMiddleware):
 * `meta.proxy` when the request sets it (null: no proxy), else the proxy of
 * the URL's scheme from `http_proxy`/`https_proxy` unless `no_proxy` exempts
 * the host. Credentials in a proxy URL become a `Proxy-Authorization`
 * header and are removed from `meta.proxy`; the header is dropped again when
 * the request moves to another proxy. HTTPPROXY_ENABLED=false switches it off.
 */
export class HttpProxyMiddleware implements DownloaderMiddleware {
  readonly authEncoding: BufferEncoding;
  readonly noProxy: string | undefined;
  readonly #proxies = new Map<string, ProxyEntry>();

  constructor(options: HttpProxyOptions = {}) {
    this.authEncoding = options.authEncoding ?? 'latin1';
    const fromEnv = options.proxies === undefined || options.noProxy === undefined ? proxiesFromEnv(process.env) : {};
    this.noProxy = options.noProxy ?? fromEnv.no;
    for (const [scheme, url] of Object.entries(options.proxies ?? fromEnv)) {
      if (scheme === 'no') continue;
      try {
        this.#proxies.set(scheme, this.#entry(url, scheme));
      } catch {
        // Values such as a socket path cannot be a proxy URL; urllib and Scrapy skip them too.
      }
    }
  }

  static fromCrawler(crawler: Crawler): HttpProxyMiddleware {
    const { settings } = crawler;
    if (!settings.getBool('HTTPPROXY_ENABLED', true)) throw new NotConfigured('HTTPPROXY_ENABLED is off');
    const encoding = settings.get('HTTPPROXY_AUTH_ENCODING');
    return new HttpProxyMiddleware({ authEncoding: encoding === undefined || encoding === null ? 'latin1' : authEncoding(String(encoding)) });
  }

  /** The proxy used for `scheme` when a request does not set one, without credentials. */
  proxyFor(scheme: string): string | null {
    return this.#proxies.get(scheme)?.url ?? null;
  }

  processRequest(request: Request): void {
    let entry: ProxyEntry | null = null;
    let fromEnvironment = false;
    if ('proxy' in request.meta) {
      const proxy = request.meta.proxy;
      if (proxy !== null && proxy !== undefined) entry = this.#entry(String(proxy), 'http');
    } else if (this.#proxies.size > 0) {
      const url = new URL(request.url);
      const scheme = url.protocol.slice(0, -1);
      const exempt = (scheme === 'http' || scheme === 'https') && bypassesProxy(url.host, this.noProxy);
      entry = exempt ? null : (this.#proxies.get(scheme) ?? null);
      fromEnvironment = entry !== null;
    }
    this.#apply(request, entry);
    // Marks a proxy chosen by scheme, so that a redirect to another scheme chooses again (redirect-request.ts).
    if (fromEnvironment) request.meta._scheme_proxy = true;
  }

  #entry(url: string, scheme: string): ProxyEntry {
    const parsed = parseProxyUrl(url, scheme);
    const auth = parsed.user ? `Basic ${Buffer.from(`${parsed.user}:${parsed.password ?? ''}`, this.authEncoding).toString('base64')}` : null;
    return { url: parsed.url, auth };
  }

  /** Scrapy's _set_proxy_and_creds: keeps meta.proxy, Proxy-Authorization and meta._auth_proxy consistent. */
  #apply(request: Request, entry: ProxyEntry | null): void {
    const { meta, headers } = request;
    if (entry !== null) meta.proxy = entry.url;
    else if (meta.proxy !== null && meta.proxy !== undefined) meta.proxy = null;
    const proxyUrl = entry?.url ?? null;
    if (entry?.auth) {
      headers.set('Proxy-Authorization', entry.auth);
      meta._auth_proxy = proxyUrl;
    } else if ('_auth_proxy' in meta) {
      if (proxyUrl !== meta._auth_proxy) {
        headers.delete('Proxy-Authorization');
        delete meta._auth_proxy;
      }
    } else if (headers.has('Proxy-Authorization')) {
      if (proxyUrl !== null) meta._auth_proxy = proxyUrl;
      else headers.delete('Proxy-Authorization');
    }
  }
}
