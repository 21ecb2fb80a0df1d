import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { crawl } from '../../src/index.js';
import type { SpiderClass } from '../../src/contracts/spider.js';
import type { LogEvent } from '../../src/log/index.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** One request as the server saw it. */
export interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** ms since the epoch when the request arrived. */
  at: number;
}

export interface TestSite {
  url(path: string): string;
  /** Paths requested, in order. */
  readonly hits: string[];
  /** Every request with its method, headers and body, in arrival order. */
  readonly requests: Hit[];
  /** Requests being answered right now, and the most there ever were at once. */
  readonly inFlight: { now: number; max: number };
  /** Requests whose connection the client closed before the answer was complete. */
  readonly aborted: string[];
  /** Forgets hits, requests, aborted and the in-flight maximum. */
  reset(): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (a free port) serving `routes`; unknown paths get 404. */
export async function startSite(routes: Record<string, Route | string>): Promise<TestSite> {
  const hits: string[] = [];
  const requests: Hit[] = [];
  const aborted: string[] = [];
  const inFlight = { now: 0, max: 0 };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    inFlight.now++;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    res.on('close', () => {
      inFlight.now--;
      if (!res.writableFinished) aborted.push(path);
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() });
      const route = routes[path.split('?')[0]!] ?? routes[path];
      if (route === undefined) {
        res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body>Not found</body></html>');
      } else if (typeof route === 'string') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(route);
      } else {
        route(req, res);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    requests,
    inFlight,
    aborted,
    reset() {
      hits.length = 0;
      requests.length = 0;
      aborted.length = 0;
      inFlight.max = inFlight.now;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small quotes site: /page/1/ … /page/<pages>/, two quotes each, `li.next a` to the next page. */
export function quotesSite(pages: number): Record<string, string> {
  const routes: Record<string, string> = {};
  for (let n = 1; n <= pages; n++) {
    const quotes = [1, 2]
      .map((i) => `<div class="quote"><span class="text">Quote ${n}.${i}</span><small class="author">Author ${i}</small>` +
        `<div class="tags"><a class="tag" href="/tag/t${i}/">t${i}</a></div></div>`)
      .join('\n');
    const next = n < pages ? `<li class="next"><a href="/page/${n + 1}/">Next</a></li>` : '';
    routes[`/page/${n}/`] = `<html><head><title>Quotes ${n}</title></head><body>${quotes}<ul class="pager">${next}</ul></body></html>`;
  }
  return routes;
}

/** A page whose links are `paths`. */
export function linksPage(paths: readonly string[]): string {
  return `<html><body>${paths.map((p) => `<a href="${p}">${p}</a>`).join('')}</body></html>`;
}

/** Answers after `ms` milliseconds (unless the client gave up first). */
export function slow(ms: number, body = '<html><body>slow</body></html>'): Route {
  return (_req, res) => {
    const timer = setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end(body), ms);
    res.on('close', () => clearTimeout(timer));
  };
}

/** What a finished crawl left: its items, log events, stats and finish reason. */
export interface CrawlResult {
  items: Array<Record<string, unknown>>;
  logs: LogEvent[];
  /** The first line of each log message. */
  lines: string[];
  stats: Record<string, unknown>;
  reason: unknown;
}

/** Settings every engine test wants: no telnet port, no periodic LogStats line. */
export const QUIET = { TELNETCONSOLE_ENABLED: false, LOGSTATS_INTERVAL: 0 } as const;

/** Runs `spiderClass` to its end with `settings` (on top of QUIET). */
export async function runCrawl(
  spiderClass: SpiderClass,
  settings: Record<string, unknown> = {},
  args?: Record<string, string>,
): Promise<CrawlResult> {
  const run = crawl(spiderClass, { settings: { ...QUIET, ...settings }, ...(args === undefined ? {} : { args }) });
  const items: Array<Record<string, unknown>> = [];
  const logs: LogEvent[] = [];
  // logs$ first: the first subscription starts the crawl, and the second must not miss its first lines.
  const logsDone = lastValueFrom(run.logs$.pipe(toArray()));
  const itemsDone = lastValueFrom(run.items$.pipe(toArray()));
  const [scraped, logged] = await Promise.all([itemsDone, logsDone]);
  items.push(...(scraped as Array<Record<string, unknown>>));
  logs.push(...logged);
  const stats = run.stats?.getAll() ?? {};
  return { items, logs, lines: logs.map((l) => l.message.split('\n')[0]!), stats, reason: stats['finish_reason'] };
}
