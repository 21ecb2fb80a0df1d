import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';

/**
 * Agents that send requests through an HTTP proxy, as Scrapy's download
 * handler does: http:// URLs in absolute form to the proxy (ScrapyProxyAgent),
 * https:// URLs through a CONNECT tunnel (TunnelingAgent). No proxy-agent
 * package is installed, and these are small.
 */
export interface ProxyTarget {
  /** The proxy's URL; http: talks plain TCP to it, https: TLS. */
  url: URL;
  /** `Basic …` for Proxy-Authorization, or null. */
  authorization: string | null;
}

/** The proxy answered CONNECT with something other than 2xx, or closed first. map-download-error.ts turns it into a TunnelError. */
export class ProxyTunnelFailure extends Error {
  constructor(readonly proxy: string, readonly status: number | null, readonly reason: string) {
    super(`CONNECT through ${proxy} failed: ${status ?? ''} ${reason}`.replace('  ', ' '));
    this.name = 'ProxyTunnelFailure';
  }
}

// ClientRequest hands every request to `agent.addRequest(req, options)` before
// it writes its head; http-proxy-agent and agent-base rewrite `req.path` there
// too. It is undocumented but has been stable since Node 0.x.
interface AgentWithAddRequest {
  addRequest(req: http.ClientRequest, options: http.RequestOptions): void;
}
const baseAddRequest = (http.Agent.prototype as unknown as AgentWithAddRequest).addRequest;

function proxyPort(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

function proxyHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function connectToProxy(proxy: URL): net.Socket {
  const host = proxyHost(proxy);
  const port = proxyPort(proxy);
  if (proxy.protocol === 'https:') {
    return tls.connect({ host, port, servername: net.isIP(host) === 0 ? host : undefined, rejectUnauthorized: false });
  }
  return net.connect({ host, port });
}

/** For http:// URLs: connects to the proxy and writes the request line in absolute form (`GET http://host/path HTTP/1.1`). */
export class HttpProxyAgent extends http.Agent {
  readonly #proxy: URL;

  constructor(proxy: URL, options: http.AgentOptions = {}) {
    super(options);
    this.#proxy = proxy;
  }

  addRequest(req: http.ClientRequest, options: http.RequestOptions): void {
    const rawHost = options.hostname ?? options.host ?? 'localhost';
    const host = rawHost.includes(':') && !rawHost.startsWith('[') ? `[${rawHost}]` : rawHost;
    const port = options.port === undefined || options.port === null || Number(options.port) === 80 ? '' : `:${options.port}`;
    req.path = `http://${host}${port}${req.path}`;
    // Pool by proxy: every target shares the connections to it.
    const viaProxy = { ...options, host: proxyHost(this.#proxy), hostname: proxyHost(this.#proxy), port: proxyPort(this.#proxy) };
    baseAddRequest.call(this, req, viaProxy);
  }

  override createConnection(_options: http.ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    if (this.#proxy.protocol !== 'https:') return connectToProxy(this.#proxy);
    const socket = connectToProxy(this.#proxy);
    // Hand the socket over only once TLS is up, so that a failed handshake errors the request.
    const done = (error: Error | null): void => {
      socket.off('error', done);
      socket.off('secureConnect', onSecure);
      callback?.(error, socket);
    };
    const onSecure = (): void => done(null);
    socket.once('secureConnect', onSecure);
    socket.once('error', done);
    return undefined;
  }
}

/** For https:// URLs: opens a CONNECT tunnel through the proxy and runs TLS to the origin inside it (without certificate checks, Scrapy's default). */
export class HttpsTunnelAgent extends https.Agent {
  readonly #proxy: ProxyTarget;

  constructor(proxy: ProxyTarget, options: https.AgentOptions = {}) {
    super(options);
    this.#proxy = proxy;
  }

  override createConnection(options: http.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const target = (options.hostname ?? options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
    const port = Number(options.port ?? 443);
    const authority = target.includes(':') ? `[${target}]:${port}` : `${target}:${port}`;
    const proxyName = this.#proxy.url.host;
    const socket = connectToProxy(this.#proxy.url);
    let settled = false;
    let head = Buffer.alloc(0);

    const finish = (error: Error | null, stream?: Duplex): void => {
      if (settled) return;
      settled = true;
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (error !== null) {
        socket.destroy();
        callback?.(error, socket);
      } else {
        callback?.(null, stream ?? socket);
      }
    };
    const onError = (error: Error): void => finish(error);
    const onClose = (): void => finish(new ProxyTunnelFailure(proxyName, null, 'the proxy closed the connection before answering CONNECT'));
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > 16 * 1024) finish(new ProxyTunnelFailure(proxyName, null, 'the proxy sent an over-long CONNECT response'));
        return;
      }
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const match = /^HTTP\/\d(?:\.\d)? (\d{3}) ?(.*)$/.exec(statusLine);
      const status = match === null ? null : Number(match[1]);
      if (status === null || status < 200 || status > 299) {
        finish(new ProxyTunnelFailure(proxyName, status, match?.[2] ?? `unreadable answer '${statusLine}'`));
        return;
      }
      // A proxy must not send tunnel bytes before the client speaks TLS, so nothing after the head is lost.
      socket.pause();
      const secure = tls.connect({
        ...(options as tls.ConnectionOptions),
        socket,
        servername: net.isIP(target) === 0 ? target : undefined,
        rejectUnauthorized: false,
      });
      finish(null, secure);
    };

    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.once('connect', () => {
      const auth = this.#proxy.authorization === null ? '' : `Proxy-Authorization: ${this.#proxy.authorization}\r\n`;
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
    });
    return undefined;
  }
}
