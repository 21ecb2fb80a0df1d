import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { createNodeFetch, type HttpFetch } from '../../src/download/fetch-node.js';
import { HTTP_CLIENTS } from './http-clients.js';
import { ConnectionRefusedError, InvalidProxyError, TunnelError } from '../../src/download/download-errors.js';
import { Request } from '../../src/http/request.js';
import { closedPort, fetchOptions, startHttpServer, startHttpsServer, type LocalServer } from './local-server.js';

/**
 * A minimal forwarding proxy on 127.0.0.1: absolute-form requests are
 * forwarded with node:http, CONNECT opens a TCP tunnel. It only ever connects
 * to 127.0.0.1. It records what it was asked; `requireAuth` answers 407
 * without that Proxy-Authorization.
 */
interface TestProxy extends LocalServer {
  seen: { method: string; target: string; proxyAuthorization: string | null }[];
}

function startProxy(requireAuth: string | null = null, scheme: 'http' | 'https' = 'http'): Promise<TestProxy> {
  const seen: TestProxy['seen'] = [];
  const sockets: net.Socket[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'] ?? null });
    if (requireAuth !== null && req.headers['proxy-authorization'] !== requireAuth) {
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    if (target.hostname !== '127.0.0.1') {
      res.writeHead(403).end('loopback only');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = http.request({ host: '127.0.0.1', port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  };
  const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
  const server = scheme === 'http'
    ? http.createServer(handler)
    : https.createServer({ key: fixture('localhost-key.pem'), cert: fixture('localhost-cert.pem') }, handler);
  server.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
    seen.push({ method: 'CONNECT', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'] ?? null });
    sockets.push(client);
    if (requireAuth !== null && req.headers['proxy-authorization'] !== requireAuth) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    if (host !== '127.0.0.1') {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.push(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `${scheme}://127.0.0.1:${port}`,
        port,
        sockets,
        seen,
        close: () => new Promise<void>((done) => {
          for (const socket of sockets) socket.destroy();
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

const started: LocalServer[] = [];
let fetch: HttpFetch = createNodeFetch();

afterEach(async () => {
  fetch.close();
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function origin(scheme: 'http' | 'https' = 'http'): Promise<LocalServer> {
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    res.end(JSON.stringify({ path: req.url, proxyAuthorization: req.headers['proxy-authorization'] ?? null, host: req.headers.host }));
  };
  const server = scheme === 'http' ? await startHttpServer(handler) : await startHttpsServer(handler);
  started.push(server);
  return server;
}

async function proxy(requireAuth: string | null = null, scheme: 'http' | 'https' = 'http'): Promise<TestProxy> {
  const server = await startProxy(requireAuth, scheme);
  started.push(server);
  return server;
}

describe.each(HTTP_CLIENTS)('%s', (_name, factory) => {
  beforeAll(() => {
    fetch.close();
    fetch = factory();
  });

  describe('through a proxy', () => {
    it('sends an http:// request to the proxy in absolute form', async () => {
      const site = await origin();
      const relay = await proxy();
      const response = await fetch(new Request(`${site.url}/page?q=1`), fetchOptions({ proxy: relay.url }));
      expect(response.json()).toEqual({ path: '/page?q=1', proxyAuthorization: null, host: `127.0.0.1:${site.port}` });
      expect(relay.seen).toEqual([{ method: 'GET', target: `${site.url}/page?q=1`, proxyAuthorization: null }]);
      expect(response.ip).toBe('127.0.0.1');
    });

    it('turns credentials in the proxy URL into Proxy-Authorization', async () => {
      const site = await origin();
      const auth = `Basic ${Buffer.from('user:p@ss').toString('base64')}`;
      const relay = await proxy(auth);
      const response = await fetch(new Request(`${site.url}/`), fetchOptions({ proxy: `http://user:p%40ss@127.0.0.1:${relay.port}` }));
      expect([response.status, relay.seen[0]?.proxyAuthorization]).toEqual([200, auth]);
    });

    it('accepts a proxy written as host:port, as http_proxy values often are', async () => {
      const site = await origin();
      const relay = await proxy();
      const response = await fetch(new Request(`${site.url}/`), fetchOptions({ proxy: `127.0.0.1:${relay.port}` }));
      expect([response.status, relay.seen.length]).toEqual([200, 1]);
    });

    it('tunnels an https:// request with CONNECT, and keeps the proxy credentials out of the tunnel', async () => {
      const site = await origin('https');
      const auth = 'Basic dXNlcjpwdw==';
      const relay = await proxy(auth);
      const request = new Request(`${site.url}/secure`, { headers: { 'Proxy-Authorization': auth } });
      const response = await fetch(request, fetchOptions({ proxy: relay.url }));
      expect(response.json()).toEqual({ path: '/secure', proxyAuthorization: null, host: `127.0.0.1:${site.port}` });
      expect(relay.seen).toEqual([{ method: 'CONNECT', target: `127.0.0.1:${site.port}`, proxyAuthorization: auth }]);
    });

    it('speaks TLS to an https:// proxy, for http:// and https:// URLs alike', async () => {
      const plain = await origin();
      const secure = await origin('https');
      const relay = await proxy(null, 'https');
      const first = await fetch(new Request(`${plain.url}/a`), fetchOptions({ proxy: relay.url }));
      const second = await fetch(new Request(`${secure.url}/b`), fetchOptions({ proxy: relay.url }));
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(relay.seen.map((seen) => [seen.method, seen.target])).toEqual([['GET', `${plain.url}/a`], ['CONNECT', `127.0.0.1:${secure.port}`]]);
    });

    it('fails with TunnelError when the proxy refuses CONNECT', async () => {
      const site = await origin('https');
      const relay = await proxy('Basic secret');
      const error = await fetch(new Request(`${site.url}/`), fetchOptions({ proxy: relay.url })).then(() => new Error('expected a failure'), (e: unknown) => e as Error);
      expect(error).toBeInstanceOf(TunnelError);
      expect((error as Error).message).toBe(
        `Could not open CONNECT tunnel with proxy 127.0.0.1:${relay.port} for ${site.url}/: 407 Proxy Authentication Required. Check the proxy's address and credentials.`,
      );
    });

    it('fails with ConnectionRefusedError naming the proxy when nothing listens there', async () => {
      const site = await origin();
      const port = await closedPort();
      const error = await fetch(new Request(`${site.url}/`), fetchOptions({ proxy: `http://127.0.0.1:${port}` })).then(() => new Error('expected a failure'), (e: unknown) => e as Error);
      expect(error).toBeInstanceOf(ConnectionRefusedError);
      expect((error as ConnectionRefusedError).address).toBe(`127.0.0.1:${port}`);
    });

    it('rejects a proxy scheme it cannot speak, without connecting, and hides the password', async () => {
      const error = await fetch(new Request('http://127.0.0.1:1/'), fetchOptions({ proxy: 'socks4://me:secret@127.0.0.1:1080' })).then(() => new Error('expected a failure'), (e: unknown) => e as Error);
      expect(error).toBeInstanceOf(InvalidProxyError);
      expect((error as Error).message).toBe(
        "Cannot use proxy 'socks4://me:***@127.0.0.1:1080' for http://127.0.0.1:1/: the socks4 scheme is not supported. Give an http://, https://, socks5:// or socks5h:// proxy URL such as 'http://127.0.0.1:3128'.",
      );
    });
  });
});
