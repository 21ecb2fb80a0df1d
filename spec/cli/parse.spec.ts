/**
 * `seine parse <url>` through the real binary, in a project made by
 * `seine startproject`, against a small quotes site on 127.0.0.1: the items
 * and requests a callback produces, printed as Scrapy's parse command lays
 * them out, level by level with --depth, and the one-line errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quotesSite, startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, runSeine } from './fixtures/run-seine.js';

const TIMEOUT = 60_000;

const QUOTES_SPIDER = `import { Spider, type Response } from 'seine';

export class QuotesSpider extends Spider {
  static name = 'quotes';
  allowedDomains = ['127.0.0.1'];
  declare tag?: string;

  *parse(response: Response) {
    for (const quote of response.css('div.quote')) {
      yield { text: quote.css('span.text::text').get(), author: quote.css('small.author::text').get() };
    }
    const next = response.css('li.next a::attr(href)').get();
    if (next != null) yield response.follow(next, this.parse);
  }

  *parseTags(response: Response) {
    yield { tags: response.css('a.tag::text').getall(), tag: this.tag ?? null };
  }

  echo(response: Response, kwargs: Record<string, unknown>) {
    return [{ foo: response.meta['foo'] ?? null, kwargs }];
  }
}
`;

const PAGES_SPIDER = `import { CrawlSpider, LinkExtractor, Rule, type Response } from 'seine';

export class PagesSpider extends CrawlSpider {
  static name = 'pages';
  allowedDomains = ['example.com'];
  override rules = [
    new Rule(new LinkExtractor({ allow: '/tag/' }), { callback: 'parseTag' }),
    new Rule(new LinkExtractor({ allow: '/page/' }), { callback: 'parsePage' }),
  ];

  parseTag(response: Response) {
    return [{ tagPage: response.url }];
  }

  parsePage(response: Response) {
    return [{ title: response.css('title::text').get() }];
  }
}
`;

let site: TestSite;
let dir: string;
let project: string;

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({ ...quotesSite(3), '/about/': '<html><head><title>About</title></head><body></body></html>' });
  dir = mkdtempSync(join(tmpdir(), 'seine-parse-'));
  expect((await runSeine(['startproject', 'tutorial'], dir)).status).toBe(0);
  project = join(dir, 'tutorial');
  const settingsFile = join(project, 'tutorial', 'settings.ts');
  // One second between requests is polite to real sites but slow for a test.
  writeFileSync(settingsFile, readFileSync(settingsFile, 'utf8').replace('export const DOWNLOAD_DELAY = 1;', 'export const DOWNLOAD_DELAY = 0;'));
  writeFileSync(join(project, 'tutorial', 'spiders', 'quotes.ts'), QUOTES_SPIDER);
  writeFileSync(join(project, 'tutorial', 'spiders', 'pages.ts'), PAGES_SPIDER);
}, 120_000);

beforeEach(() => site.reset());

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function parse(...args: string[]): ReturnType<typeof runSeine> {
  return runSeine(['parse', '--nolog', ...args], project);
}

describe('seine parse', () => {
  it("prints the items and requests of the spider's parse callback for the URL", async () => {
    const result = await runSeine(['parse', site.url('/page/1/')], project);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe([
      '',
      '>>> STATUS DEPTH LEVEL 1 <<<',
      '# Scraped Items  ------------------------------------------------------------',
      '[',
      "  { text: 'Quote 1.1', author: 'Author 1' },",
      "  { text: 'Quote 1.2', author: 'Author 2' }",
      ']',
      '# Requests  -----------------------------------------------------------------',
      `[ <GET ${site.url('/page/2/')}> ]`,
      '',
    ].join('\n'));
    // The spider was found by its allowedDomains; its one page was downloaded, the request it made was not.
    expect(site.hits).toEqual(['/robots.txt', '/page/1/']);
    expect(logMessages(result.stderr)).toContain(`Crawled (200) <GET ${site.url('/page/1/')}> (referer: None)`);
  }, TIMEOUT);

  it('--depth 2 follows the requests once: the items of both levels, the requests of the second', async () => {
    const result = await parse(site.url('/page/1/'), '--depth', '2');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe([
      '',
      '>>> STATUS DEPTH LEVEL 2 <<<',
      '# Scraped Items  ------------------------------------------------------------',
      '[',
      "  { text: 'Quote 1.1', author: 'Author 1' },",
      "  { text: 'Quote 1.2', author: 'Author 2' },",
      "  { text: 'Quote 2.1', author: 'Author 1' },",
      "  { text: 'Quote 2.2', author: 'Author 2' }",
      ']',
      '# Requests  -----------------------------------------------------------------',
      `[ <GET ${site.url('/page/3/')}> ]`,
      '',
    ].join('\n'));
    expect(site.hits).toEqual(['/robots.txt', '/page/1/', '/page/2/']);
  }, TIMEOUT);

  it('--verbose prints each level with its own items and requests; --noitems and --nolinks leave them out', async () => {
    const verbose = await parse(site.url('/page/2/'), '-d', '3', '--verbose');
    expect(verbose.stdout).toBe([
      '',
      '>>> DEPTH LEVEL: 1 <<<',
      '# Scraped Items  ------------------------------------------------------------',
      '[',
      "  { text: 'Quote 2.1', author: 'Author 1' },",
      "  { text: 'Quote 2.2', author: 'Author 2' }",
      ']',
      '# Requests  -----------------------------------------------------------------',
      `[ <GET ${site.url('/page/3/')}> ]`,
      '',
      '>>> DEPTH LEVEL: 2 <<<',
      '# Scraped Items  ------------------------------------------------------------',
      '[',
      "  { text: 'Quote 3.1', author: 'Author 1' },",
      "  { text: 'Quote 3.2', author: 'Author 2' }",
      ']',
      '# Requests  -----------------------------------------------------------------',
      '[]',
      '',
    ].join('\n'));
    const noItems = await parse(site.url('/page/2/'), '-d', '3', '--verbose', '--noitems');
    expect(noItems.stdout).toBe(`\n>>> DEPTH LEVEL: 1 <<<\n# Requests  ${'-'.repeat(65)}\n[ <GET ${site.url('/page/3/')}> ]\n\n>>> DEPTH LEVEL: 2 <<<\n# Requests  ${'-'.repeat(65)}\n[]\n`);
    const noLinks = await parse(site.url('/page/3/'), '--nolinks');
    expect(noLinks.stdout).toBe(`\n>>> STATUS DEPTH LEVEL 1 <<<\n# Scraped Items  ${'-'.repeat(60)}\n[\n  { text: 'Quote 3.1', author: 'Author 1' },\n  { text: 'Quote 3.2', author: 'Author 2' }\n]\n`);
  }, TIMEOUT);

  it('-c uses another method of the spider, which sees the -a arguments', async () => {
    const result = await parse(site.url('/page/1/'), '-c', 'parseTags', '-a', 'tag=humor');
    expect(result.stdout).toBe(`\n>>> STATUS DEPTH LEVEL 1 <<<\n# Scraped Items  ${'-'.repeat(60)}\n[ { tags: [ 't1', 't2' ], tag: 'humor' } ]\n# Requests  ${'-'.repeat(65)}\n[]\n`);
  }, TIMEOUT);

  it('-m and --cbkwargs reach the callback as meta and keyword arguments', async () => {
    const result = await parse(site.url('/page/1/'), '-c', 'echo', '-m', '{"foo": "bar"}', '--cbkwargs', '{"n": 1}');
    expect(result.stdout).toContain("[ { foo: 'bar', kwargs: { n: 1 } } ]\n");
  }, TIMEOUT);

  it("--rules takes the callback of the CrawlSpider's first rule that matches the URL", async () => {
    const result = await parse(site.url('/page/2/'), '--spider', 'pages', '-r');
    expect(result.stdout).toBe(`\n>>> STATUS DEPTH LEVEL 1 <<<\n# Scraped Items  ${'-'.repeat(60)}\n[ { title: 'Quotes 2' } ]\n# Requests  ${'-'.repeat(65)}\n[]\n`);
    const none = await parse(site.url('/about/'), '--spider', 'pages', '-r');
    expect(none.stderr).toBe(`seine: Cannot find a rule that matches '${site.url('/about/')}' in spider: pages (give the callback with -c NAME)\n`);
    expect(none.status).toBe(1);
  }, TIMEOUT);

  it('-o also writes the items to a feed', async () => {
    const feed = join(dir, 'parsed.jsonl');
    const result = await parse(site.url('/page/1/'), '-O', feed);
    expect(result.status).toBe(0);
    expect(readFileSync(feed, 'utf8')).toBe('{"text": "Quote 1.1", "author": "Author 1"}\n{"text": "Quote 1.2", "author": "Author 2"}\n');
  }, TIMEOUT);
});

describe('seine parse errors', () => {
  it('an unknown callback: one line, exit status 1, nothing downloaded', async () => {
    expect(await parse(site.url('/page/1/'), '-c', 'parseNothing')).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: "seine: Cannot find callback 'parseNothing' in spider: quotes\n",
    });
    expect(site.hits).toEqual([]);
  }, TIMEOUT);

  it('a URL no spider of the project covers, and an unknown --spider', async () => {
    expect(await parse('http://localhost:1/page/1/')).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: 'seine: Unable to find spider for: http://localhost:1/page/1/ (name one with --spider NAME; seine list shows them)\n',
    });
    expect(await parse(site.url('/page/1/'), '--spider', 'nope')).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: 'seine: Spider not found: nope (available spiders: pages, quotes)\n',
    });
  }, TIMEOUT);

  it('a page the spider does not handle (404): one line saying why, exit status 1', async () => {
    expect(await parse(site.url('/missing/'))).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: `seine: No response downloaded for: ${site.url('/missing/')} (the spider does not handle status 404: allow it with HTTPERROR_ALLOWED_CODES)\n`,
    });
  }, TIMEOUT);

  it('outside a project: the No seine.cfg message, exit status 1', async () => {
    expect(await runSeine(['parse', '--nolog', site.url('/page/1/')], dir)).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: 'seine: No seine.cfg found here or in any parent directory: run `seine startproject <name>` or cd into a project\n',
    });
  }, TIMEOUT);

  it('usage errors (exit status 2): a URL without scheme, --depth 0, -m that is not a JSON object', async () => {
    expect(await parse('127.0.0.1/page/1/')).toMatchObject({ status: 2, stderr: "seine: '127.0.0.1/page/1/' is not a full URL: write the full URL with its scheme, e.g. http://127.0.0.1/page/1/ (http, https and file URLs) — run 'seine parse --help' for usage\n" });
    expect(await parse(site.url('/page/1/'), '--depth', '0')).toMatchObject({ status: 2, stderr: "seine: --depth must be a whole number of 1 or more, got '0' — run 'seine parse --help' for usage\n" });
    expect(await parse(site.url('/page/1/'), '-m', '{foo}')).toMatchObject({ status: 2, stderr: `seine: Invalid -m/--meta value '{foo}': give a JSON object, e.g. --meta='{"foo": "bar"}' — run 'seine parse --help' for usage\n` });
    expect(site.hits).toEqual([]);
  }, TIMEOUT);
});
