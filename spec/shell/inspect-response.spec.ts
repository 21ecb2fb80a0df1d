/**
 * inspectResponse in a real crawl (runspider through the real binary, a
 * site on 127.0.0.1 whose pages answer slowly so requests are in flight
 * when the console opens): while the console is open nothing reaches the
 * server and no `Crawled` line is printed; `fetch` fails with a clear line;
 * on leaving, the crawl finishes with exactly the items of a crawl that
 * was not inspected.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt } from '../cli/fixtures/run-seine.js';
import { runPiped } from './fixtures/piped.js';
import { Terminal } from './fixtures/terminal.js';

const PAGES = 8;
const DELAY_MS = 150;

const SPIDER = `import { Spider, type Response } from 'seine';
import { inspectResponse } from 'seine/shell';

export class PagesSpider extends Spider {
  static name = 'pages';
  static customSettings = { CONCURRENT_REQUESTS: 4, LOGSTATS_INTERVAL: 0 };
  startUrls = [process.env.START_URL!];

  async *parse(response: Response) {
    if (process.env.INSPECT === '1' && response.url.endsWith('/p/2')) await inspectResponse(response, this);
    for (const text of response.css('li::text').getall()) yield { page: response.url, text };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
  }
}
`;

function page(n: number): string {
  return `<html><body><ul><li>item ${n}a</li><li>item ${n}b</li></ul></body></html>`;
}

let site: TestSite;
let dir: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  const routes: Record<string, (req: unknown, res: import('node:http').ServerResponse) => void> = {
    '/': (_req, res) => {
      const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i + 1}">${i + 1}</a>`).join(' ');
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body>${links}</body></html>`);
    },
  };
  for (let n = 1; n <= PAGES; n++) {
    routes[`/p/${n}`] = (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page(n)), DELAY_MS);
    };
  }
  site = await startSite(routes as never);
  dir = mkdtempSync(join(tmpdir(), 'seine-inspect-'));
  writeFileSync(join(dir, 'pages.ts'), SPIDER);
});

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function items(file: string): string[] {
  return readFileSync(join(dir, file), 'utf8').trim().split('\n').sort();
}

describe('inspectResponse', () => {
  let expected: string[];

  beforeAll(async () => {
    const run = await runPiped(['runspider', 'pages.ts', '-O', 'plain.jsonl', '--nolog'], '', { cwd: dir, env: { START_URL: site.url('/'), HOME: dir } });
    expect(run.status).toBe(0);
    expected = items('plain.jsonl');
    expect(expected).toHaveLength(PAGES * 2);
  });

  it('opens the console on the response with the engine paused, and the crawl ends with the same items', async () => {
    site.reset();
    const t = new Terminal(['runspider', 'pages.ts', '-O', 'inspected.jsonl'], { cwd: dir, env: { START_URL: site.url('/'), INSPECT: '1', HOME: dir } });
    try {
      await t.waitFor(/seine> $/);
      const opened = t.text.length;
      const bannerStart = t.text.lastIndexOf('[s] Available seine objects:');
      const hitsAtOpen = site.hits.length;
      expect(t.text.slice(bannerStart)).toContain(`[s]   response   <200 ${site.url('/p/2')}>`);
      expect(t.text.slice(bannerStart)).toContain("[s]   spider     <PagesSpider 'pages'>");
      expect(t.text.slice(bannerStart)).not.toContain('fetch(url'); // no fetch shortcut inside a crawl

      expect(await t.run('[response.url, request.url, spider.name]')).toContain(`[ '${site.url('/p/2')}', '${site.url('/p/2')}', 'pages' ]`);
      expect(await t.run('response.css("li::text").getall()')).toContain("[ 'item 2a', 'item 2b' ]");
      const fetched = await t.run(`fetch("${site.url('/p/7')}")`);
      expect(fetched).toContain('FetchInCrawlError: fetch() is not available inside a running crawl');
      expect(fetched).not.toContain('    at ');

      // Long enough for several more pages at this speed: none is asked for, none is logged.
      await new Promise((resolve) => setTimeout(resolve, 4 * DELAY_MS + 600));
      expect(site.hits.length).toBe(hitsAtOpen);
      expect(t.text.slice(bannerStart)).not.toMatch(/Crawled \(\d+\)/);
      expect(t.text.slice(opened)).not.toMatch(/Scraped from/);

      t.type('\x04');
      expect(await t.exited).toBe(0);
      expect(t.text.slice(opened)).toMatch(/Crawled \(200\)/); // the crawl went on after the console
      expect(t.text).toContain('Spider closed (finished)');
    } finally {
      t.kill();
    }
    expect(items('inspected.jsonl')).toEqual(expected);
  }, 60_000);

  it('reads piped lines in the console, then lets the crawl finish', async () => {
    const run = await runPiped(['runspider', 'pages.ts', '-O', 'piped.jsonl', '--nolog'], 'response.url\nitem\n', {
      cwd: dir,
      env: { START_URL: site.url('/'), INSPECT: '1', HOME: dir },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`'${site.url('/p/2')}'\n{}\n`);
    expect(items('piped.jsonl')).toEqual(expected);
  }, 60_000);
});
