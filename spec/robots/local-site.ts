/**
 * A site on 127.0.0.1 (port 0) for the robots tests: fixed routes, a count
 * of hits per path, optional delays, and a download function that fetches
 * from it the way the engine's download path would (a seine Response).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';

export interface Route {
  status?: number;
  body?: string | Buffer;
  /** Milliseconds before answering; Infinity never answers. */
  delayMs?: number;
}

export interface LocalSite {
  readonly origin: string;
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startSite(routes: Record<string, Route>): Promise<LocalSite> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path] ?? { status: 200, body: `<html><body>${path}</body></html>` };
    const answer = (): void => {
      res.writeHead(route.status ?? 200, { 'Content-Type': path.endsWith('.txt') ? 'text/plain' : 'text/html' });
      res.end(route.body ?? '');
    };
    if (route.delayMs === Infinity) return;
    if (route.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export class DownloadTimeoutError extends Error {
  constructor(request: Request, timeoutMs: number) {
    super(`Getting ${request.url} took longer than ${timeoutMs / 1000} seconds.`);
    this.name = 'DownloadTimeoutError';
  }
}

/** Downloads with fetch(); rejects with a DownloadTimeoutError after `timeoutMs`, aborting the transfer. */
export function downloader(timeoutMs = 2000): (request: Request) => Promise<Response> {
  return async (request) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new DownloadTimeoutError(request, timeoutMs));
      }, timeoutMs);
    });
    try {
      const fetched = await Promise.race([fetch(request.url, { signal: controller.signal }), timeout]);
      const body = Buffer.from(await Promise.race([fetched.arrayBuffer(), timeout]));
      return new Response({ url: fetched.url, status: fetched.status, headers: Object.fromEntries(fetched.headers), body, request });
    } finally {
      clearTimeout(timer);
    }
  };
}
