import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SeineError } from '../errors/seine-error.js';
import { routeDemo } from './route-demo.js';

export class DemoSiteError extends SeineError {
  static readonly code = 'SEINE_DEMO_SITE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(DemoSiteError.code, message, options);
  }
}

export interface DemoSite {
  /** The home page, e.g. `http://127.0.0.1:8000/`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops open connections (keep-alive ones too). */
  close(): Promise<void>;
}

/**
 * Serves the demo quotes site on 127.0.0.1 — loopback only: it is a local
 * playground, never something to expose. `port` 0 (the default) takes a free
 * port; the tutorial uses a fixed one so its spiders can name the URL.
 */
export async function startDemoSite(options: { port?: number } = {}): Promise<DemoSite> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new DemoSiteError(`Invalid demo site port ${String(port)}: give a whole number from 1 to 65535, or 0 for a free port`);
  }
  const server: Server = createServer((req, res) => {
    const answer = req.method === 'GET' || req.method === 'HEAD' ? routeDemo(req.url ?? '/') : null;
    if (answer === null) {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    res.writeHead(answer.status, { ...answer.headers, 'Content-Length': Buffer.byteLength(answer.body) });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EACCES' ? 'permission denied' : error.message;
      reject(new DemoSiteError(`Cannot serve the demo site on 127.0.0.1:${port}: ${reason} (choose another with --port, or --port 0 for a free one)`, { cause: error }));
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
