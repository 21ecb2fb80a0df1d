import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestSite {
  url(path: string): string;
  /** Paths requested, in order. */
  readonly hits: string[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (a free port) serving `routes`; unknown paths get 404. */
export async function startSite(routes: Record<string, Route | string>): Promise<TestSite> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const route = routes[path];
    if (route === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body>Not found</body></html>');
    } else if (typeof route === 'string') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(route);
    } else {
      route(req, res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
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
