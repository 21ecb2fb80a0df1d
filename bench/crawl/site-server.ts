/**
 * The benchmark site, run as a process of its own (run.ts starts it) so that
 * serving pages does not take CPU from the crawler being measured: the
 * machines have 2 cores, one for the site and one for the crawler.
 *
 * Serves page 1…N at /page/<n>/ from bodies generated once at start-up, 404
 * for everything else (robots.txt included: a 404 there allows everything).
 * `GET /__hits` answers with what was served since the last `/__hits` and
 * resets the counts, so each crawler's run is counted by the site as well as
 * by the crawler's own stats.
 *
 * Prints one JSON line `{"url": "http://127.0.0.1:<port>", "pages": N}` on
 * stdout when it listens; stops on SIGTERM, or when stdin closes (the parent
 * died), so no server outlives the benchmark.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PAGES, pagePath, sitePage } from './site-page.js';

export interface SiteHits {
  /** Requests answered with a page (200). */
  pages: number;
  /** Distinct pages among them. */
  distinctPages: number;
  robots: number;
  /** Requests answered 404, robots.txt excluded. */
  notFound: number;
}

export function pageBodies(total: number): Map<string, Buffer> {
  const bodies = new Map<string, Buffer>();
  for (let n = 1; n <= total; n++) bodies.set(pagePath(n), Buffer.from(sitePage(n, total), 'utf8'));
  return bodies;
}

/** `delayMs` holds each page's answer back, as a real site's latency does (bench:distributed's latency-bound runs). */
export function startSiteServer(total: number, port = 0, delayMs = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const bodies = pageBodies(total);
  let served = new Map<string, number>();
  let robots = 0;
  let notFound = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    if (path === '/__hits') {
      let pages = 0;
      for (const count of served.values()) pages += count;
      const hits: SiteHits = { pages, distinctPages: served.size, robots, notFound };
      served = new Map();
      robots = 0;
      notFound = 0;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(hits));
      return;
    }
    const body = bodies.get(path);
    if (body === undefined) {
      if (path === '/robots.txt') robots++;
      else notFound++;
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': '22' }).end('<h1>404 Not Found</h1>');
      return;
    }
    served.set(path, (served.get(path) ?? 0) + 1);
    const answer = (): void => void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(body.length) }).end(body);
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
  // Loopback only: the benchmark's traffic never leaves the machine.
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${bound}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const total = Number(process.argv[2] ?? DEFAULT_PAGES);
  const site = await startSiteServer(total, 0, Number(process.argv[3] ?? 0));
  const stop = (): void => void site.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop).resume();
  process.stdout.write(JSON.stringify({ url: site.url, pages: total }) + '\n');
}
