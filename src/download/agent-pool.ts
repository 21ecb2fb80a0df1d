import http from 'node:http';
import https from 'node:https';
import { Headers } from '../http/headers.js';
import { InvalidProxyError } from './download-errors.js';
import { HttpProxyAgent, HttpsTunnelAgent, type ProxyTarget } from './proxy-agent.js';

export interface Route {
  agents: { http: http.Agent; https: https.Agent };
  /** The request's headers as they go on the wire (Proxy-Authorization added or moved to the tunnel). */
  headers: Headers;
}

/**
 * The keep-alive agents of one fetch function: one pair for direct
 * connections, and one agent per proxy (and, for tunnels, per proxy
 * credentials, since those travel in CONNECT rather than in each request).
 */
export class AgentPool {
  readonly #maxSockets: number;
  readonly #direct: Route['agents'];
  readonly #viaProxy = new Map<string, http.Agent>();

  constructor(maxSockets: number) {
    this.#maxSockets = maxSockets;
    this.#direct = {
      http: new http.Agent({ keepAlive: true, maxSockets }),
      https: new https.Agent({ keepAlive: true, maxSockets, rejectUnauthorized: false }),
    };
  }

  /** Agents and headers for `url`, going through `proxy` when it is not null. */
  route(url: string, proxy: string | null, headers: Headers): Route {
    if (proxy === null || proxy === '') return { agents: this.#direct, headers };
    const target = parseProxy(url, proxy, headers.get('proxy-authorization'));
    const wire = headers.copy();
    if (url.startsWith('https:')) {
      // The credentials belong to the proxy: they go in CONNECT, never to the origin.
      wire.delete('proxy-authorization');
      const key = `tunnel ${target.url.origin} ${target.authorization ?? ''}`;
      let agent = this.#viaProxy.get(key) as https.Agent | undefined;
      if (agent === undefined) {
        agent = new HttpsTunnelAgent(target, { keepAlive: true, maxSockets: this.#maxSockets, rejectUnauthorized: false });
        this.#viaProxy.set(key, agent);
      }
      return { agents: { http: this.#direct.http, https: agent }, headers: wire };
    }
    if (target.authorization !== null) wire.set('Proxy-Authorization', target.authorization);
    const key = `forward ${target.url.origin}`;
    let agent = this.#viaProxy.get(key);
    if (agent === undefined) {
      agent = new HttpProxyAgent(target.url, { keepAlive: true, maxSockets: this.#maxSockets });
      this.#viaProxy.set(key, agent);
    }
    return { agents: { http: agent, https: this.#direct.https }, headers: wire };
  }

  /** Closes every pooled connection; in-flight requests fail. */
  destroy(): void {
    this.#direct.http.destroy();
    this.#direct.https.destroy();
    for (const agent of this.#viaProxy.values()) agent.destroy();
    this.#viaProxy.clear();
  }
}

/**
 * Reads a proxy URL as Scrapy's HttpProxyMiddleware does: `host:port` alone
 * means http, credentials in the URL become `Basic` Proxy-Authorization
 * (percent-decoded, latin-1 as HTTPPROXY_AUTH_ENCODING's default), and
 * without them a Proxy-Authorization header already on the request is used.
 */
export function parseProxy(requestUrl: string, proxy: string, headerAuth: string | null): ProxyTarget {
  const withScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(proxy) ? proxy : `http://${proxy}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InvalidProxyError(requestUrl, redact(proxy), 'it is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidProxyError(requestUrl, redact(proxy), `the ${url.protocol.slice(0, -1)} scheme is not supported`);
  }
  if (url.hostname === '') throw new InvalidProxyError(requestUrl, redact(proxy), 'it names no host');
  let authorization = headerAuth;
  if (url.username !== '' || url.password !== '') {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    authorization = `Basic ${Buffer.from(credentials, 'latin1').toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { url, authorization };
}

/** A proxy URL fit for a message: the password replaced. */
function redact(proxy: string): string {
  return proxy.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}
