import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { lazyPackage } from '../errors/lazy-package.js';
import { ProxyTunnelFailure } from './proxy-agent.js';

/**
 * Agents that reach the origin through a SOCKS5 proxy: the `socks` package
 * opens the tunnel (RFC 1928, with RFC 1929's username/password method when
 * the proxy URL has credentials), and for https:// URLs TLS to the origin
 * runs inside it (without certificate checks, as the other agents).
 * `socks5://` resolves the host name here and sends the address, as curl
 * does; `socks5h://` lets the proxy resolve it.
 */
export interface SocksTarget {
  host: string;
  port: number;
  /** false for socks5h://: the proxy resolves the origin's name. */
  resolveLocally: boolean;
  user: string | null;
  password: string | null;
  /** `host:port` of the proxy, for messages. */
  label: string;
}

// Loaded with the first SOCKS tunnel: bundled, the package and its address parser (ip-address) made a
// 225 KB chunk that every crawl parsed with its HTTP client, though most never use a SOCKS proxy.
const socks = lazyPackage<typeof import('socks')>('socks', 'SOCKS5 proxies (socks5:// in meta.proxy or PROXY_LIST)');

async function openTunnel(proxy: SocksTarget, options: http.RequestOptions): Promise<net.Socket> {
  const target = (options.hostname ?? options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
  const port = Number(options.port ?? 80);
  const host = proxy.resolveLocally && net.isIP(target) === 0 ? (await dns.lookup(target)).address : target;
  try {
    const { socket } = await socks().SocksClient.createConnection({
      command: 'connect',
      destination: { host, port },
      proxy: {
        host: proxy.host,
        port: proxy.port,
        type: 5,
        ...(proxy.user === null ? {} : { userId: proxy.user, password: proxy.password ?? '' }),
      },
    });
    return socket;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Not reaching the proxy at all stays a connection error (ECONNREFUSED names the proxy's address).
    if (typeof code === 'string') throw error;
    const message = error instanceof Error ? error.message : String(error);
    // The socks package's messages name neither the password nor the user.
    throw new ProxyTunnelFailure(proxy.label, null, `SOCKS5: ${message}`);
  }
}

export class SocksHttpAgent extends http.Agent {
  readonly #proxy: SocksTarget;

  constructor(proxy: SocksTarget, options: http.AgentOptions = {}) {
    super(options);
    this.#proxy = proxy;
  }

  override createConnection(options: http.ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    openTunnel(this.#proxy, options).then(
      (socket) => callback?.(null, socket),
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

export class SocksHttpsAgent extends https.Agent {
  readonly #proxy: SocksTarget;

  constructor(proxy: SocksTarget, options: https.AgentOptions = {}) {
    super(options);
    this.#proxy = proxy;
  }

  override createConnection(options: http.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const target = (options.hostname ?? options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
    openTunnel(this.#proxy, { ...options, port: options.port ?? 443 }).then(
      (socket) => {
        const secure = tls.connect({
          ...(options as tls.ConnectionOptions),
          socket,
          servername: net.isIP(target) === 0 ? target : undefined,
          rejectUnauthorized: false,
        });
        callback?.(null, secure);
      },
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }
}
