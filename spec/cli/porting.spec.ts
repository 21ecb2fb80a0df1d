/**
 * The first hour of a Scrapy user, end to end with the real binary: the
 * mistakes a port makes (spec/fixtures/porting/) in projects made by
 * `seine startproject`, against a local site on 127.0.0.1. Each mistake is
 * reported in one line that names the file and what seine wants instead.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, runSeine } from './fixtures/run-seine.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/porting/', import.meta.url));
const TIMEOUT = 60_000;

const HOME = `<html><body>
<div class="quote"><span class="text">Quote one.</span> <small class="author">Albert Einstein</small> <a href="/author/Albert-Einstein/">(about)</a>
<div class="tags"><a class="tag">change</a></div></div>
<div class="quote"><span class="text">Quote two.</span> <small class="author">Jane Austen</small> <a href="/author/Jane-Austen/">(about)</a>
<div class="tags"><a class="tag">humor</a></div></div>
</body></html>`;

let site: TestSite;
let dir: string;
let porting: string;
let shop: string;

/** `LEVEL message` for each log line of `stderr` at `levels`. */
function logged(stderr: string, levels: readonly string[] = ['WARNING', 'ERROR']): string[] {
  return stderr.split('\n').flatMap((line) => {
    const match = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[[^\]]+\] ([A-Z]+): (.*)$/.exec(line);
    return match !== null && levels.includes(match[1]!) ? [`${match[1]!} ${match[2]!}`] : [];
  });
}

function jsonLines(text: string): unknown[] {
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
}

/** A fixture into the project's spiders folder, its quotes.toscrape.com URLs pointed at the local site. */
function addSpider(project: string, module: string, fixture: string, as: string = fixture): void {
  const text = readFileSync(join(FIXTURES, fixture), 'utf8').replaceAll('http://quotes.toscrape.com/', site.url('/'));
  writeFileSync(join(project, module, 'spiders', as), text);
}

async function startProject(name: string): Promise<string> {
  expect((await runSeine(['startproject', name], dir)).status).toBe(0);
  const project = join(dir, name);
  const settingsFile = join(project, name, 'settings.ts');
  const settings = readFileSync(settingsFile, 'utf8').replace('export const DOWNLOAD_DELAY = 1;', 'export const DOWNLOAD_DELAY = 0;');
  writeFileSync(settingsFile, `${settings}\nexport const TELNETCONSOLE_ENABLED = false;\n`);
  // As after `npm install`: compiled copies go to node_modules/.cache/seine/ts/, the path Node's errors named.
  mkdirSync(join(project, 'node_modules'));
  return project;
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({
    '/': HOME,
    '/author/Albert-Einstein/': '<html><body><h3 class="author-title">Albert Einstein</h3></body></html>',
    '/author/Jane-Austen/': '<html><body><h3 class="author-title">Jane Austen</h3></body></html>',
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-porting-'));
  porting = await startProject('porting');
  addSpider(porting, 'porting', 'toscrape-css.ts');
  addSpider(porting, 'porting', 'cb-kwargs.ts');
  addSpider(porting, 'porting', 'settings-spider.ts');
  shop = await startProject('shop');
  writeFileSync(
    join(shop, 'shop', 'spiders', 'quotes.ts'),
    `import { Spider, type Response } from 'seine';\nexport class QuotesSpider extends Spider {\n  static name = 'quotes';\n  startUrls = ['${site.url('/')}'];\n  parse(response: Response) {\n    return response.css('small.author::text').getall().map((author) => ({ author }));\n  }\n}\n`,
  );
  addSpider(shop, 'shop', 'broken.ts.txt', 'broken.ts');
  addSpider(shop, 'shop', 'needs-package.ts');
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a spider with Scrapy's spellings", () => {
  it('gets a WARNING per spelling naming the class, the file and seine\'s name, and the ERROR that nothing could start', async () => {
    site.reset();
    const run = await runSeine(['crawl', 'toscrape-css', '-L', 'INFO'], porting);
    expect(run.status).toBe(0);
    const file = 'porting/spiders/toscrape-css.ts';
    expect(logged(run.stderr)).toEqual([
      `WARNING ToScrapeCSSSpider.start_urls (${file}) is ignored: seine spells it startUrls`,
      `WARNING ToScrapeCSSSpider.allowed_domains (${file}) is ignored: seine spells it allowedDomains`,
      `WARNING ToScrapeCSSSpider.start_requests() (${file}) is never called: seine calls start() instead (an async generator: async *start() { … })`,
      `WARNING ToScrapeCSSSpider.custom_settings (${file}) is ignored: seine spells it static customSettings`,
      "ERROR Error while obtaining start requests: Crawling could not start: 'startUrls' not found or empty (but found Scrapy's 'start_urls' attribute instead: seine spells it startUrls)",
    ]);
    expect(site.hits).toEqual([]);
  }, TIMEOUT);

  it('crawls, without a warning, once each name is renamed as the warnings say', async () => {
    const path = join(porting, 'porting', 'spiders', 'toscrape-css.ts');
    const ported = readFileSync(path, 'utf8')
      .replaceAll('start_urls', 'startUrls')
      .replace('allowed_domains', 'allowedDomains')
      .replace('*start_requests()', 'async *start()')
      .replace('custom_settings', 'customSettings')
      .replace('dont_filter', 'dontFilter');
    writeFileSync(path, ported);
    try {
      const run = await runSeine(['crawl', 'toscrape-css', '-o', '-:jsonl', '-L', 'INFO'], porting);
      expect(run.status).toBe(0);
      expect(logged(run.stderr)).toEqual([]);
      expect(jsonLines(run.stdout)).toEqual([
        { text: 'Quote one.', author: 'Albert Einstein', tags: ['change'] },
        { text: 'Quote two.', author: 'Jane Austen', tags: ['humor'] },
      ]);
    } finally {
      addSpider(porting, 'porting', 'toscrape-css.ts');
    }
  }, TIMEOUT);

  it("reports cb_kwargs in a Request's options as the callback's error, with seine's name cbKwargs", async () => {
    const run = await runSeine(['crawl', 'authors', '-L', 'INFO'], porting);
    expect(run.status).toBe(0);
    expect(logged(run.stderr)).toEqual([`ERROR Spider error processing <GET ${site.url('/')}> (referer: None)`]);
    // The stack starts at the spider's line that made the Request, not in seine's bundle.
    const stack = run.stderr.slice(run.stderr.indexOf('\nTypeError: ') + 1).split('\n');
    expect(stack[0]).toBe("TypeError: Unknown Request option 'cb_kwargs': seine spells it cbKwargs");
    expect(stack[1]).toBe(`    at AuthorsSpider.parse (${join(porting, 'porting', 'spiders', 'cb-kwargs.ts')}:10:13)`);
  }, TIMEOUT);
});

describe('this.settings in a spider', () => {
  it("is the crawl's frozen settings in start(), callbacks and closed(), and says why it is not there in the constructor", async () => {
    const run = await runSeine(['crawl', 'settings', '-o', '-:jsonl', '-L', 'INFO'], porting);
    expect(run.status).toBe(0);
    expect(jsonLines(run.stdout)).toEqual([
      {
        where: 'start',
        bot: 'porting',
        early: 'SettingsSpider.settings is not set yet: the crawler gives the spider its settings after constructing it; read them in start() or a callback, not in the constructor',
      },
      { where: 'parse', concurrency: 3, frozen: true },
    ]);
    expect(logged(run.stderr, ['INFO'])).toContain('INFO closed (finished) with BOT_NAME=porting');
    const fromCommandLine = await runSeine(['crawl', 'settings', '-o', '-:jsonl', '--nolog', '-s', 'CONCURRENT_REQUESTS=5'], porting);
    expect(jsonLines(fromCommandLine.stdout)[1]).toEqual({ where: 'parse', concurrency: 5, frozen: true });
  }, TIMEOUT);
});

describe('a project with a spider file that does not load', () => {
  const broken = "WARNING: Could not load shop/spiders/broken.ts: shop/spiders/broken.ts:10:1: Unexpected end of file";
  const missing =
    "WARNING: Could not load shop/spiders/needs-package.ts: it imports the package 'slugify-not-installed', which is not installed: run `npm install slugify-not-installed` in the project";

  it('seine list: lists the spiders that loaded, a WARNING for each file that did not, and exits 1', async () => {
    expect(await runSeine(['list'], shop)).toEqual({
      status: 1,
      signal: null,
      stdout: 'quotes\n',
      stderr: `${broken}\n${missing}\nseine: 2 spider files could not be loaded (shop/spiders/broken.ts, shop/spiders/needs-package.ts): their spiders were not listed; fix the error in their WARNING above\n`,
    });
  }, TIMEOUT);

  it('seine check: checks the rest, then exits 1', async () => {
    const run = await runSeine(['check'], shop);
    expect(run.status).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([broken, missing]);
    expect(lines.at(-2)).toBe('OK');
    expect(lines.at(-1)).toBe(
      'seine: 2 spider files could not be loaded (shop/spiders/broken.ts, shop/spiders/needs-package.ts): their spiders were not checked; fix the error in their WARNING above',
    );
  }, TIMEOUT);

  it('seine crawl: crawls a spider that loaded, after a WARNING for each file that did not', async () => {
    const run = await runSeine(['crawl', 'quotes', '-o', '-:jsonl', '-L', 'INFO'], shop);
    expect(run.status).toBe(0);
    expect(logged(run.stderr)).toEqual([broken, missing].map((line) => line.replace('WARNING: ', 'WARNING ')));
    expect(jsonLines(run.stdout)).toEqual([{ author: 'Albert Einstein' }, { author: 'Jane Austen' }]);
    // The compiled copy Node's own error named is not the user's business.
    expect(run.stderr).not.toContain('.cache');
  }, TIMEOUT);

  it('seine crawl of a spider not found: the error says a file that did not load may hold it', async () => {
    for (const name of ['broken', 'slugs']) {
      const run = await runSeine(['crawl', name, '--nolog'], shop);
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
        status: 1,
        stdout: '',
        stderr: `seine: Spider not found: ${name} (available spiders: quotes); it may be in a file that could not be loaded: shop/spiders/broken.ts, shop/spiders/needs-package.ts (see the WARNING above)\n`,
      });
    }
    const logging = await runSeine(['crawl', 'broken', '-L', 'WARNING'], shop);
    expect(logged(logging.stderr)).toEqual([broken, missing].map((line) => line.replace('WARNING: ', 'WARNING ')));
  }, TIMEOUT);

});
