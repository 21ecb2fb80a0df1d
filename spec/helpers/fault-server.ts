/**
 * A hostile HTTP server for tests: every route misbehaves in one way a real
 * server or page does (connection faults, lying headers, corrupt or
 * bomb-sized compressed bodies, pages that strain the parser). It listens on
 * 127.0.0.1, port 0, and is closed by the test that started it:
 *
 *   const faults = await startFaultServer();
 *   … faults.url('/bomb/gzip-huge') …
 *   await faults.close();
 *
 * Sizes can be changed per request with `?bytes=N` where a route says so.
 * The compressed bombs are built once per process, chunk by chunk from a
 * stream of zeros (never the whole inflated body in memory): 640 MiB of
 * zeros gzip to ~0.62 MB in ~2 s; `FAULT_ROUTES` lists every route with what
 * it does.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';

export const MiB = 1024 * 1024;

/** Inflated sizes of the two gzip bombs. */
export const SMALL_BOMB_BYTES = 50 * MiB;
export const HUGE_BOMB_BYTES = 640 * MiB;

type Handler = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => void | Promise<void>;

export interface FaultRoute {
  path: string;
  /** What the route does, for test names and docs. */
  fault: string;
  handler: Handler;
}

export interface FaultServer {
  url(path: string): string;
  /** Paths requested, in order (with their query). */
  readonly hits: string[];
  /** When each path was requested (ms since the epoch), in order. */
  readonly times: Array<{ path: string; at: number }>;
  close(): Promise<void>;
}

const HTML = { 'Content-Type': 'text/html; charset=utf-8' };

/** Gzip of `size` zero bytes, compressed one MiB at a time. */
export async function gzipZeros(size: number): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    gzip.once('end', resolve);
    gzip.once('error', reject);
  });
  const zeros = Buffer.alloc(MiB);
  for (let left = size; left > 0; left -= MiB) {
    const chunk = left >= MiB ? zeros : zeros.subarray(0, left);
    if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

const bombs = new Map<number, Promise<Buffer>>();
/** Cached per process: building the huge bomb costs ~2 s of CPU. */
export function gzipBomb(size: number): Promise<Buffer> {
  let bomb = bombs.get(size);
  if (bomb === undefined) {
    bomb = gzipZeros(size);
    bombs.set(size, bomb);
  }
  return bomb;
}

/** Writes `total` bytes of `fill` in 64 KiB chunks, respecting backpressure. */
async function stream(res: ServerResponse, total: number, fill = 'a'): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  for (let left = total; left > 0 && !res.destroyed; left -= chunk.length) {
    if (!res.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

function sizeParam(query: URLSearchParams, fallback: number): number {
  const value = Number(query.get('bytes'));
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

/** A deterministic run of bytes that is not text (no valid UTF-8 sequences, NULs, control bytes). */
function binaryBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let x = 0x2545f491;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

export const FAULT_ROUTES: readonly FaultRoute[] = [
  {
    path: '/reset-mid-body',
    fault: 'sends the headers and 10,000 of 100,000 bytes, then resets the connection (TCP RST)',
    handler: (_req, res) => {
      res.writeHead(200, { ...HTML, 'Content-Length': '100000' });
      res.write(Buffer.alloc(10_000, 'a'), () => setTimeout(() => (res.socket as Socket | null)?.resetAndDestroy(), 20));
    },
  },
  {
    path: '/stall-after-headers',
    fault: 'sends the headers, then nothing, never ending the body',
    handler: (_req, res) => {
      res.writeHead(200, HTML);
      res.flushHeaders();
    },
  },
  {
    path: '/slow-drip',
    fault: 'sends one byte every 100 ms for a minute (each read succeeds; only a whole-download deadline stops it)',
    handler: (_req, res) => {
      res.writeHead(200, { ...HTML, 'Content-Length': '600' });
      let sent = 0;
      const timer = setInterval(() => {
        res.write('a');
        if (++sent === 600) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      res.on('close', () => clearInterval(timer));
    },
  },
  {
    path: '/truncated',
    fault: 'announces Content-Length 10,000, sends 5,000 bytes and closes the connection cleanly (FIN)',
    handler: (_req, res) => {
      res.writeHead(200, { ...HTML, 'Content-Length': '10000' });
      res.write(Buffer.alloc(5_000, 'a'), () => res.socket?.end());
    },
  },
  {
    path: '/wrong-length-smaller',
    fault: 'announces Content-Length 20 and sends a 200-byte page in the same write, then closes',
    handler: (_req, res) => {
      const body = `<html><body><p class="v">wrong length</p>${'x'.repeat(200)}</body></html>`.slice(0, 200);
      // Written raw, in one write so the client reads the surplus with the response: node:http would refuse to send it.
      res.socket?.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 20\r\n\r\n${body}`);
    },
  },
  ...(['gzip', 'deflate', 'br'] as const).map((coding): FaultRoute => ({
    path: `/bad-${coding}`,
    fault: `labels a plain-text sentence with Content-Encoding: ${coding}`,
    handler: (_req, res) => {
      res.writeHead(200, { ...HTML, 'Content-Encoding': coding });
      res.end('this is not a compressed body, whatever the header says');
    },
  })),
  {
    path: '/bomb/gzip-small',
    fault: `a gzip body of ~50 KB that inflates to ${SMALL_BOMB_BYTES / MiB} MiB of zeros, as text/html`,
    handler: async (_req, res) => {
      const bomb = await gzipBomb(SMALL_BOMB_BYTES);
      res.writeHead(200, { ...HTML, 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) }).end(bomb);
    },
  },
  {
    path: '/bomb/gzip-huge',
    fault: `a gzip body of ~0.6 MB that inflates to ${HUGE_BOMB_BYTES / MiB} MiB of zeros, as text/html`,
    handler: async (_req, res) => {
      const bomb = await gzipBomb(HUGE_BOMB_BYTES);
      res.writeHead(200, { ...HTML, 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) }).end(bomb);
    },
  },
  {
    path: '/oversize/with-length',
    fault: 'a body of ?bytes= (default 80 MiB) announced by Content-Length',
    handler: (_req, res, query) => {
      const size = sizeParam(query, 80 * MiB);
      res.writeHead(200, { ...HTML, 'Content-Length': String(size) });
      return stream(res, size);
    },
  },
  {
    path: '/oversize/chunked',
    fault: 'a body of ?bytes= (default 80 MiB) sent chunked, without Content-Length',
    handler: (_req, res, query) => {
      res.writeHead(200, HTML);
      return stream(res, sizeParam(query, 80 * MiB));
    },
  },
  {
    path: '/unknown-charset',
    fault: 'a page labelled Content-Type: text/html; charset=x-unknown-42',
    handler: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=x-unknown-42' }).end('<html><body><p class="v">unknown charset</p></body></html>');
    },
  },
  {
    path: '/binary-as-html',
    fault: '64 KiB of random bytes labelled text/html',
    handler: (_req, res) => {
      res.writeHead(200, HTML).end(binaryBytes(64 * 1024));
    },
  },
  {
    path: '/deep-nesting',
    fault: 'a page of 100,000 nested <div> elements',
    handler: (_req, res) => {
      res.writeHead(200, HTML).end(`<html><body>${'<div>'.repeat(100_000)}<p class="v">deep</p>${'</div>'.repeat(100_000)}</body></html>`);
    },
  },
  {
    path: '/long-line',
    fault: 'a 20 MiB page on one line (one text node between two tags)',
    handler: (_req, res) => {
      const head = '<html><body><p class="v">long line</p><p>';
      const tail = '</p></body></html>';
      res.writeHead(200, { ...HTML, 'Content-Length': String(20 * MiB) });
      res.write(head);
      res.write(Buffer.alloc(20 * MiB - head.length - tail.length, 'w'));
      res.end(tail);
    },
  },
  {
    path: '/bad-links',
    fault: 'a page of invalid links (bad IPv6, bad port, spaces, bad escapes) and non-HTTP ones (mailto:, javascript:, ftp:, tel:, data:)',
    handler: (_req, res) => {
      const hrefs = ['http://[::1', 'http://127.0.0.1:99999/', 'http://exa mple.com/', 'http://', '//', '/%zz%', 'mailto:someone@example.com',
        'javascript:void(0)', 'ftp://127.0.0.1/file.txt', 'tel:+100', 'data:text/html,<p>hi</p>'];
      res.writeHead(200, HTML).end(`<html><body><p class="v">bad links</p>${hrefs.map((h) => `<a href="${h}">x</a>`).join('')}</body></html>`);
    },
  },
  {
    path: '/status-500',
    fault: 'answers 500 Internal Server Error every time',
    handler: (_req, res) => {
      res.writeHead(500, HTML).end('<html><body>boom</body></html>');
    },
  },
  {
    path: '/status-429',
    fault: 'answers 429 Too Many Requests with Retry-After: 1 every time',
    handler: (_req, res) => {
      res.writeHead(429, { ...HTML, 'Retry-After': '1' }).end('<html><body>slow down</body></html>');
    },
  },
  {
    path: '/redirect-loop',
    fault: 'redirects (302) to itself',
    handler: (_req, res) => {
      res.writeHead(302, { Location: '/redirect-loop' }).end();
    },
  },
  {
    path: '/meta-refresh-loop',
    fault: 'an HTML page whose <meta http-equiv="refresh"> points to itself',
    handler: (_req, res) => {
      res.writeHead(200, HTML).end('<html><head><meta http-equiv="refresh" content="0; url=/meta-refresh-loop"></head><body><p class="v">refresh</p></body></html>');
    },
  },
  {
    path: '/redirect-to-ftp',
    fault: 'redirects (302) to ftp://127.0.0.1/file.txt',
    handler: (_req, res) => {
      res.writeHead(302, { Location: 'ftp://127.0.0.1/file.txt' }).end();
    },
  },
];

/** Healthy pages beside the faults, each with one `p.v` to scrape. */
export const HEALTHY_PATHS = ['/healthy/1', '/healthy/2', '/healthy/3'] as const;

/**
 * Starts the server. `/` links to every healthy page and to every fault
 * route in FAULT_ROUTES (or those `paths` names); `/healthy/<n>` are plain
 * pages. The bombs are built before it listens.
 */
export async function startFaultServer(options: { paths?: readonly string[]; query?: Record<string, string> } = {}): Promise<FaultServer> {
  const routes = new Map(FAULT_ROUTES.map((route) => [route.path, route]));
  const linked = options.paths ?? FAULT_ROUTES.map((route) => route.path);
  const suffix = options.query === undefined ? '' : `?${new URLSearchParams(options.query).toString()}`;
  if (linked.includes('/bomb/gzip-small')) await gzipBomb(SMALL_BOMB_BYTES);
  if (linked.includes('/bomb/gzip-huge')) await gzipBomb(HUGE_BOMB_BYTES);
  const hits: string[] = [];
  const times: Array<{ path: string; at: number }> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    hits.push(url.pathname + url.search);
    times.push({ path: url.pathname, at: Date.now() });
    req.resume();
    if (url.pathname === '/') {
      const links = [...HEALTHY_PATHS, ...linked.map((path) => (path.startsWith('/oversize/') ? path + suffix : path))];
      res.writeHead(200, HTML).end(`<html><body><p class="v">index</p>${links.map((p) => `<a href="${p}">${p}</a>`).join('\n')}</body></html>`);
      return;
    }
    if ((HEALTHY_PATHS as readonly string[]).includes(url.pathname)) {
      res.writeHead(200, HTML).end(`<html><body><p class="v">healthy ${url.pathname.slice(-1)}</p></body></html>`);
      return;
    }
    const route = routes.get(url.pathname);
    if (route === undefined) {
      res.writeHead(404, HTML).end('<html><body>Not found</body></html>');
      return;
    }
    Promise.resolve(route.handler(req, res, url.searchParams)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    times,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
