import http from 'node:http';
import https from 'node:https';
import { Headers } from '../http/headers.js';
import { InvalidProxyError } from './download-errors.js';
import { HttpProxyAgent, HttpsTunnelAgent, type ProxyTarget } from './proxy-agent.js';
import { SocksHttpAgent, SocksHttpsAgent, type SocksTarget } from './socks-agent.js';

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
    if (target.url.protocol === 'socks5:' || target.url.protocol === 'socks5h:') {
      // The credentials go in the SOCKS handshake, never to the origin.
      wire.delete('proxy-authorization');
      return { agents: this.#socksAgents(socksTarget(target)), headers: wire };
    }
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

  /** One pair of agents per SOCKS proxy and credentials: http:// and https:// URLs both go through the tunnel. */
  #socksAgents(target: SocksTarget): Route['agents'] {
    const key = `socks ${target.resolveLocally ? '' : 'h'}${target.label} ${target.user ?? ''}:${target.password ?? ''}`;
    let http = this.#viaProxy.get(`${key} http`);
    let https = this.#viaProxy.get(`${key} https`) as https.Agent | undefined;
    if (http === undefined || https === undefined) {
      http = new SocksHttpAgent(target, { keepAlive: true, maxSockets: this.#maxSockets });
      https = new SocksHttpsAgent(target, { keepAlive: true, maxSockets: this.#maxSockets, rejectUnauthorized: false });
      this.#viaProxy.set(`${key} http`, http);
      this.#viaProxy.set(`${key} https`, https);
    }
    return { http, https };
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
  if (!['http:', 'https:', 'socks5:', 'socks5h:'].includes(url.protocol)) {
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

/** A SOCKS5 proxy with its credentials: from the URL, else from the Basic Proxy-Authorization that HttpProxyMiddleware made of them. */
function socksTarget(target: ProxyTarget): SocksTarget {
  let user: string | null = null;
  let password: string | null = null;
  const basic = target.authorization === null ? null : /^Basic\s+(\S+)$/i.exec(target.authorization);
  if (basic !== null) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('latin1');
    const colon = decoded.indexOf(':');
    user = colon === -1 ? decoded : decoded.slice(0, colon);
    password = colon === -1 ? '' : decoded.slice(colon + 1);
  }
  const host = target.url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = target.url.port === '' ? 1080 : Number(target.url.port);
  return { host, port, resolveLocally: target.url.protocol === 'socks5:', user, password, label: `${target.url.hostname}:${port}` };
}

/** A proxy URL fit for a message: the password replaced. */
function redact(proxy: string): string {
  return proxy.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}
