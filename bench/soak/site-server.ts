/**
 * The soak benchmark's site, run as a process of its own: page 1…N of the
 * crawl benchmark's site (bench/crawl/site-page.ts), generated when asked
 * for rather than all at start-up (200,000 pages of ~12.7 KB would hold
 * 2.5 GB). `GET /__count` answers with how many pages were served so far.
 * Prints `{"url": …, "pages": N}` when it listens; stops on SIGTERM or when
 * stdin closes (the parent died).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sitePage } from '../crawl/site-page.js';

const total = Number(process.argv[2] ?? 200_000);
let served = 0;
const server = createServer((req, res) => {
  const path = req.url ?? '/';
  if (path === '/__count') {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ served }));
    return;
  }
  const match = /^\/page\/(\d+)\/$/.exec(path);
  const n = match === null ? 0 : Number(match[1]);
  if (n < 1 || n > total) {
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': '22' }).end('<h1>404 Not Found</h1>');
    return;
  }
  served++;
  const body = Buffer.from(sitePage(n, total), 'utf8');
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(body.length) }).end(body);
});
// Loopback only: the benchmark's traffic never leaves the machine.
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, pages: total })}\n`);
});
const stop = (): void => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop).resume();
