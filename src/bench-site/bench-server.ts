import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderBenchPage } from './bench-page.js';

export interface BenchServer {
  /** The server's root, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops open connections (keep-alive ones too), so the process can exit. */
  close(): Promise<void>;
}

/**
 * Serves the bench pages (renderBenchPage) on a free port of 127.0.0.1:
 * loopback only, and a free port so that two benchmarks, or a benchmark and
 * the tests, never collide (Scrapy's fixed 8998 can).
 */
export async function startBenchServer(): Promise<BenchServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    const page = renderBenchPage(req.url ?? '/');
    res.writeHead(page.status, { 'Content-Type': page.contentType, 'Content-Length': Buffer.byteLength(page.body) });
    res.end(req.method === 'HEAD' ? undefined : page.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
