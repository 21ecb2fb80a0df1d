/** A site of linked pages on 127.0.0.1 and a spider file for `seine runspider … --workers N`. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSite, type TestSite } from '../helpers/site-server.js';

/** Page n links to 8 others (most of them seen before, as on a real site); every page is reachable from page 0. */
export function linkedPage(n: number, pages: number): string {
  const links: string[] = [`<a href="/page/${(n + 1) % pages}">next</a>`];
  for (let k = 1; k < 8; k++) links.push(`<a href="/page/${(n * 7 + k * 13) % pages}">${k}</a>`);
  return `<html><body><h1>Page ${n}</h1><p class="n">${n}</p>${links.join(' ')}</body></html>`;
}

/** `pages` linked pages under /page/<n>, each answered after `latencyMs`. */
export function startLinkedSite(pages: number, latencyMs = 0): Promise<TestSite> {
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {};
  for (let n = 0; n < pages; n++) {
    const body = linkedPage(n, pages);
    routes[`/page/${n}`] = (_req, res) => {
      const send = (): void => void res.writeHead(200, { 'Content-Type': 'text/html' }).end(body);
      if (latencyMs > 0) setTimeout(send, latencyMs);
      else send();
    };
  }
  return startSite(routes);
}

/** A folder holding pages.ts: one item per page ({ n }), following every link. */
export function spiderDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'seine-workers-'));
  writeFileSync(
    join(dir, 'pages.ts'),
    `import { Request, Spider, type Response } from 'seine';

export class PagesSpider extends Spider {
  static name = 'pages';
  declare site: string;

  async *start() {
    yield new Request(this.site + '/page/0');
  }

  *parse(response: Response) {
    yield { n: Number(response.css('p.n::text').get()) };
    yield* response.followAll(response.css('a::attr(href)').getall(), this.parse);
  }
}
`,
  );
  return dir;
}

/** The `n` of each line of a JSON Lines feed. */
export function feedNumbers(path: string): number[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { n: number }).n);
}

/** The stats dump's integer values (`'name': 12,`). */
export function dumpedStats(stderr: string): Record<string, number> {
  const dump = stderr.slice(stderr.lastIndexOf('Dumping seine stats:'));
  const stats: Record<string, number> = {};
  for (const match of dump.matchAll(/'([^']+)': (\d+)[,}]/g)) stats[match[1]!] = Number(match[2]);
  return stats;
}
