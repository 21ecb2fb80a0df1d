/**
 * Forward proxies whose upstream connections leave from distinct loopback
 * addresses, so the guarded site sees each proxy as a different client:
 * proxy i listens on 127.0.0.1:<free port> and connects to the site from
 * 127.0.0.<i + 2> (the whole 127.0.0.0/8 is loopback on Linux; 127.0.0.1 is
 * left to clients that use no proxy).
 *
 * Both ways a client uses an HTTP proxy work: absolute-form requests
 * (`GET http://host/path`, any method, for http:// targets) and CONNECT
 * tunnels (what browsers, got-scraping and https:// targets use). With
 * `auth`, a request without the right `Proxy-Authorization: Basic …` gets
 * 407; credentials are never printed anywhere. With `hosts`, the proxies
 * resolve those names themselves (`{ 'shop.guarded.test': '127.0.0.1' }`),
 * so crawlers can address the site by a name, as they would a real one
 * (Crawlee's sameDomainDelaySecs, for one, ignores IP addresses), without
 * an entry in /etc/hosts: through a proxy, a client never resolves the name.
 */
import { connect, type Socket } from 'node:net';
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ClientProxy {
  /** `http://[user:pass@]127.0.0.1:<port>`, as PROXY_LIST and ProxyConfiguration take it. */
  url: string;
  /** The address the site sees: 127.0.0.<i + 2>. */
  localAddress: string;
  /** Requests forwarded (absolute-form) and tunnels opened (CONNECT); 407s answered. */
  readonly counts: { forwarded: number; tunnels: number; refused: number };
}

export interface ClientProxies {
  proxies: ClientProxy[];
  urls: string[];
  close(): Promise<void>;
}

// Hop-by-hop headers a proxy must not pass on (RFC 9110 §7.6.1), and the proxy's own credentials.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forwardHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

export interface ClientProxyOptions {
  auth?: { user: string; password: string };
  /** Names the proxies resolve to these addresses. */
  hosts?: Readonly<Record<string, string>>;
}

async function startOne(index: number, { auth, hosts = {} }: ClientProxyOptions): Promise<{ proxy: ClientProxy; server: Server; agent: Agent; tunnels: Set<Socket> }> {
  const localAddress = `127.0.0.${index + 2}`;
  const counts = { forwarded: 0, tunnels: 0, refused: 0 };
  const expected = auth === undefined ? undefined : `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
  const allowed = (headers: IncomingHttpHeaders): boolean => expected === undefined || headers['proxy-authorization'] === expected;
  // One agent per proxy: its pooled connections all leave from this proxy's address.
  const agent = new Agent({ keepAlive: true, localAddress });

  const server = createServer((req, res) => {
    if (!allowed(req.headers)) {
      counts.refused++;
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="client-proxy"' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form request expected');
      return;
    }
    counts.forwarded++;
    const upstream = request(
      { host: hosts[target.hostname] ?? target.hostname, port: target.port || 80, method: req.method, path: target.pathname + target.search, headers: forwardHeaders(req.headers), agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardHeaders(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  });

  // Tunnels leave the server's connection list once established: close() ends them from here.
  const tunnels = new Set<Socket>();
  server.on('connect', (req, client: Socket, head: Buffer) => {
    if (!allowed(req.headers)) {
      counts.refused++;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="client-proxy"\r\n\r\n');
      return;
    }
    const [name, port] = (req.url ?? '').split(':');
    const host = hosts[name!] ?? name!;
    counts.tunnels++;
    const upstream = connect({ host, port: Number(port) || 443, localAddress }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    tunnels.add(client).add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('close', () => (tunnels.delete(upstream), client.destroy()));
    client.on('close', () => (tunnels.delete(client), upstream.destroy()));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const credentials = auth === undefined ? '' : `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@`;
  return { proxy: { url: `http://${credentials}127.0.0.1:${port}`, localAddress, counts }, server, agent, tunnels };
}

/** Starts `n` proxies (n ≤ 250), upstream from 127.0.0.2 … 127.0.0.<n + 1>. */
export async function startClientProxies(n: number, options: ClientProxyOptions = {}): Promise<ClientProxies> {
  const started = await Promise.all(Array.from({ length: n }, (_, i) => startOne(i, options)));
  return {
    proxies: started.map((s) => s.proxy),
    urls: started.map((s) => s.proxy.url),
    close: () =>
      Promise.all(
        started.map(
          ({ server, agent, tunnels }) =>
            new Promise<void>((resolve) => {
              agent.destroy();
              server.closeAllConnections();
              tunnels.forEach((socket) => socket.destroy());
              server.close(() => resolve());
            }),
        ),
      ).then(() => undefined),
  };
}
