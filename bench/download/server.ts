/**
 * The server of bench/download-micro.ts, in a process of its own so that the
 * client process's `process.cpuUsage()` holds the client's CPU only (and, on
 * the 2-core machines, each side has a core).
 *
 * Serves `/page/1/` … `/page/N/`: the pages of the crawl benchmark's site
 * (bench/crawl/site-page.ts, ~12.7 KB of HTML each), rendered once at
 * start-up, with Content-Length, keep-alive, no compression; 404 otherwise.
 * Listens on 127.0.0.1 only.
 *
 * Talks to its parent over the IPC channel: sends `{ port, lengths }` once
 * it listens (lengths[n - 1] = bytes of page n), answers `{ type: 'cpu' }`
 * with its own `process.cpuUsage()` and the count of pages served, and exits
 * when the channel closes, so it never outlives the benchmark.
 *
 *   node --import tsx bench/download/server.ts [pages=200]
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pagePath, sitePage } from '../crawl/site-page.js';

export interface ServerReady {
  type: 'ready';
  port: number;
  /** Bytes of page n at index n - 1. */
  lengths: number[];
}

export interface ServerCpu {
  type: 'cpu';
  id: number;
  /** The server process's own process.cpuUsage(), µs. */
  usage: NodeJS.CpuUsage;
  /** Pages (200 answers) served since start-up. */
  served: number;
}

const pages = Number(process.argv[2] ?? 200);
if (!Number.isInteger(pages) || pages < 1) throw new Error(`pages must be a positive integer, not ${process.argv[2]}`);
if (process.send === undefined) throw new Error('bench/download/server.ts is started by bench/download-micro.ts (it needs an IPC channel)');

const bodies = new Map<string, Buffer>();
for (let n = 1; n <= pages; n++) bodies.set(pagePath(n), Buffer.from(sitePage(n, pages), 'utf8'));

let served = 0;
const server = createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  if (body === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': 9 });
    res.end('not found');
    return;
  }
  served++;
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const ready: ServerReady = { type: 'ready', port: (server.address() as AddressInfo).port, lengths: [...bodies.values()].map((b) => b.length) };
  process.send!(ready);
});

process.on('message', (message: { type?: string; id?: number }) => {
  if (message.type !== 'cpu') return;
  const answer: ServerCpu = { type: 'cpu', id: message.id ?? 0, usage: process.cpuUsage(), served };
  process.send!(answer);
});
process.on('disconnect', () => process.exit(0));
