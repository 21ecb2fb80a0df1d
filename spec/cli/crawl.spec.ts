/**
 * `seine crawl` and `seine list` end to end: a project made by the real
 * `seine startproject`, spiders written into it, and a real HTTP server on
 * 127.0.0.1 that this file starts. The project has no node_modules: its
 * `import … from 'seine'` resolves to the running seine.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, logMessages, runSeine } from './fixtures/run-seine.js';

const QUOTES = [
  { text: 'The world as we have created it is a process of our thinking.', author: 'Albert Einstein' },
  { text: 'A day without sunshine is like, you know, night.', author: 'Steve Martin' },
];

function quotePage(n: number): string {
  const quote = QUOTES[n - 1]!;
  const next = n < QUOTES.length ? `<li class="next"><a href="/page/${n + 1}/">Next</a></li>` : '';
  return `<html><body><div class="quote"><span class="text">${quote.text}</span>
<small class="author">${quote.author}</small></div><ul class="pager">${next}</ul></body></html>`;
}

const QUOTES_SPIDER = `import { Spider, type Response } from 'seine';

export class QuotesSpider extends Spider {
  static name = 'quotes';
  startUrls = ['BASE/page/1/'];

  *parse(response: Response) {
    for (const quote of response.css('div.quote')) {
      yield { text: quote.css('span.text::text').get(), author: quote.css('small.author::text').get() };
    }
    const next = response.css('li.next a::attr(href)').get();
    if (next != null) yield response.follow(next, this.parse);
  }
}
`;

// Reports the effective value of settings set at each level, as one item.
const LAYERS_SPIDER = `import { Spider, type Response } from 'seine';

export class LayersSpider extends Spider {
  static name = 'layers';
  static customSettings = { LAYER_SPIDER: 'spider', LAYER_CMDLINE: 'spider' };
  declare tag?: string;
  startUrls = ['BASE/page/1/'];

  parse(_response: Response) {
    const settings = this.crawler!.settings;
    return [{
      project: settings.get('LAYER_PROJECT'),
      spider: settings.get('LAYER_SPIDER'),
      cmdline: settings.get('LAYER_CMDLINE'),
      botName: settings.get('BOT_NAME'),
      robots: settings.get('ROBOTSTXT_OBEY'),
      perDomain: settings.get('CONCURRENT_REQUESTS_PER_DOMAIN'),
      tag: this.tag ?? null,
    }];
  }
}
`;

const PROJECT_SETTINGS = `
export const LAYER_PROJECT = 'project';
export const LAYER_SPIDER = 'project';
export const LAYER_CMDLINE = 'project';
export const TELNETCONSOLE_ENABLED = false;
export const ITEM_PIPELINES = { TutorialPipeline: 300 };
`;

const PIPELINE = `import type { Item, ItemPipeline } from 'seine';

export class TutorialPipeline implements ItemPipeline {
  processItem(item: Item): Item {
    return { ...(item as Record<string, unknown>), pipeline: 'TutorialPipeline' };
  }
}
`;

const TIMEOUT = 60_000;
let site: TestSite;
let dir: string;
let project: string;

function jsonLines(text: string): unknown[] {
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
}

function writeSpider(projectDir: string, module: string, file: string, source: string): void {
  writeFileSync(join(projectDir, module, 'spiders', file), source.replaceAll('BASE', site.url('').replace(/\/$/, '')));
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({ '/page/1/': quotePage(1), '/page/2/': quotePage(2), '/': '<html><body>home</body></html>' });
  dir = mkdtempSync(join(tmpdir(), 'seine-crawl-'));
  expect((await runSeine(['startproject', 'tutorial'], dir)).status).toBe(0);
  project = join(dir, 'tutorial');
  const settingsFile = join(project, 'tutorial', 'settings.ts');
  // One second between requests is polite to real sites but slow for a test.
  const settings = readFileSync(settingsFile, 'utf8').replace('export const DOWNLOAD_DELAY = 1;', 'export const DOWNLOAD_DELAY = 0;');
  writeFileSync(settingsFile, settings + PROJECT_SETTINGS);
  writeFileSync(join(project, 'tutorial', 'pipelines.ts'), PIPELINE);
  writeSpider(project, 'tutorial', 'quotes.ts', QUOTES_SPIDER);
  mkdirSync(join(project, 'tutorial', 'spiders', 'more'));
  writeSpider(project, 'tutorial', join('more', 'layers.ts'), LAYERS_SPIDER);
}, 120_000);

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seine list', () => {
  it("prints the project's spider names sorted, from any folder inside the project", async () => {
    for (const cwd of [project, join(project, 'tutorial', 'spiders', 'more')]) {
      expect(await runSeine(['list'], cwd)).toEqual({ status: 0, signal: null, stdout: 'layers\nquotes\n', stderr: '' });
    }
  }, TIMEOUT);

  it('fails outside a project with a clear message', async () => {
    expect(await runSeine(['list'], dir)).toEqual({
      status: 1,
      signal: null,
      stdout: '',
      stderr: 'seine: No seine.cfg found here or in any parent directory: run `seine startproject <name>` or cd into a project\n',
    });
  }, TIMEOUT);
});

describe('seine crawl', () => {
  it('runs a spider of the project from a subfolder, through the pipeline settings.ts names', async () => {
    const out = join(dir, 'quotes.jsonl');
    const result = await runSeine(['crawl', 'quotes', '-O', out, '-L', 'INFO'], join(project, 'tutorial'));
    expect(result.status).toBe(0);
    expect(jsonLines(readFileSync(out, 'utf8'))).toEqual(QUOTES.map((quote) => ({ ...quote, pipeline: 'TutorialPipeline' })));
    expect(logMessages(result.stderr)).toContain('Spider closed (finished)');
  }, TIMEOUT);

  it('layers settings: defaults < settings.ts < customSettings < -s', async () => {
    const result = await runSeine(['crawl', 'layers', '-o', '-', '-s', 'LAYER_CMDLINE=cmdline', '--nolog'], project);
    expect(result.status).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([
      { project: 'project', spider: 'spider', cmdline: 'cmdline', botName: 'tutorial', robots: true, perDomain: 1, tag: null, pipeline: 'TutorialPipeline' },
    ]);
    // ROBOTSTXT_OBEY = true in the generated settings.ts: robots.txt is asked for first.
    expect(site.hits.filter((path) => path === '/robots.txt').length).toBeGreaterThan(0);
  }, TIMEOUT);

  it('passes -a arguments to the spider', async () => {
    const result = await runSeine(['crawl', 'layers', '-a', 'tag=humor', '-o', '-', '--nolog'], project);
    expect(result.status).toBe(0);
    expect(jsonLines(result.stdout)).toMatchObject([{ tag: 'humor' }]);
  }, TIMEOUT);

  it('names the spiders that exist when the name is unknown', async () => {
    expect(await runSeine(['crawl', 'nope', '--nolog'], project)).toMatchObject({
      status: 1,
      stdout: '',
      stderr: 'seine: Spider not found: nope (available spiders: layers, quotes)\n',
    });
  }, TIMEOUT);

  it('fails outside a project with a clear message', async () => {
    expect(await runSeine(['crawl', 'quotes', '--nolog'], dir)).toMatchObject({
      status: 1,
      stderr: 'seine: No seine.cfg found here or in any parent directory: run `seine startproject <name>` or cd into a project\n',
    });
  }, TIMEOUT);

  it('refuses two spiders with one name, naming both files', async () => {
    expect((await runSeine(['startproject', 'twins'], dir)).status).toBe(0);
    const twins = join(dir, 'twins');
    writeSpider(twins, 'twins', 'a.ts', QUOTES_SPIDER);
    writeSpider(twins, 'twins', 'b.ts', QUOTES_SPIDER.replace('class QuotesSpider', 'class OtherQuotesSpider'));
    const message = "seine: Several spiders are named 'quotes': twins/spiders/a.ts and twins/spiders/b.ts; give each spider its own static name\n";
    expect(await runSeine(['crawl', 'quotes', '--nolog'], twins)).toMatchObject({ status: 1, stderr: message });
    expect(await runSeine(['list'], twins)).toMatchObject({ status: 1, stdout: '', stderr: message });
  }, TIMEOUT);

  it('runs a spider made by `seine genspider` (basic template) against the local server', async () => {
    const host = site.url('').replace(/^http:\/\//, '').replace(/\/$/, '');
    const made = await runSeine(['genspider', 'home', host], project);
    expect(made).toMatchObject({ status: 0, stdout: "Created spider 'home' using template 'basic' in module:\n  tutorial/spiders/home.ts\n" });
    const result = await runSeine(['crawl', 'home', '-L', 'DEBUG'], project);
    expect(result.status).toBe(0);
    expect(logMessages(result.stderr)).toContain(`Crawled (200) <GET ${site.url('/')}> (referer: None)`);
    expect(logMessages(result.stderr)).toContain('Spider closed (finished)');
  }, TIMEOUT);
});

describe('seine settings in a project', () => {
  it("prints the project's value, below -s", async () => {
    expect(await runSeine(['settings', '--get', 'BOT_NAME'], join(project, 'tutorial'))).toMatchObject({ status: 0, stdout: 'tutorial\n' });
    expect(await runSeine(['settings', '--get', 'LAYER_PROJECT', '--getlist', 'SPIDER_MODULES'], project)).toMatchObject({
      status: 0,
      stdout: 'project\n["tutorial/spiders"]\n',
    });
    expect(await runSeine(['settings', '--get', 'DOWNLOAD_DELAY', '-s', 'DOWNLOAD_DELAY=3'], project)).toMatchObject({ status: 0, stdout: '3\n' });
  }, TIMEOUT);

  it("prints seine's default outside a project", async () => {
    expect(await runSeine(['settings', '--get', 'BOT_NAME'], dir)).toMatchObject({ status: 0, stdout: 'seinebot\n' });
  }, TIMEOUT);
});

describe("component names in a spider's customSettings", () => {
  it("are looked up in the project's modules, as in settings.ts", async () => {
    writeFileSync(
      join(project, 'tutorial', 'pipelines.ts'),
      `${PIPELINE}
export class ExtraPipeline implements ItemPipeline {
  processItem(item: Item): Item {
    return { ...(item as Record<string, unknown>), extra: true };
  }
}
`,
    );
    writeSpider(
      project,
      'tutorial',
      'extra.ts',
      QUOTES_SPIDER.replace("static name = 'quotes';", "static name = 'extra';\n  static customSettings = { ITEM_PIPELINES: { ExtraPipeline: 400 } };").replace('QuotesSpider', 'ExtraSpider'),
    );
    const result = await runSeine(['crawl', 'extra', '-o', '-', '--nolog'], project);
    expect(result.status).toBe(0);
    const items = jsonLines(result.stdout) as Array<Record<string, unknown>>;
    expect(items).toHaveLength(2);
    // The spider's list replaces the project's (a dict setting at a higher priority), as in Scrapy.
    for (const item of items) expect(item).toMatchObject({ extra: true });
    for (const item of items) expect(item).not.toHaveProperty('pipeline');
  }, TIMEOUT);
});
