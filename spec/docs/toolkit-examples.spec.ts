/**
 * Runs the spider toolkit's documentation as a user would: docs/contracts.md
 * (its spider checked with `seine check` in a project made by `seine
 * startproject`, against the demo site, each shown session compared line by
 * line; its custom contracts registered in settings.ts), docs/loaders.md's
 * product spider and docs/requests.md's login spider (with `seine
 * runspider` against local sites).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoSite, type DemoSite } from '../../src/demo/index.js';
import { ensureBuilt, ROOT, runSeine } from '../cli/fixtures/run-seine.js';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { startToolkitSite } from '../helpers/toolkit-site.js';

const TIMEOUT = 60_000;

function docExamples(page: string): Map<string, string> {
  const doc = readFileSync(join(ROOT, 'docs', page), 'utf8');
  return new Map([...doc.matchAll(/```ts\n\/\/ example: ([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));
}

/** The `$ npx seine …` sessions of a page's plain code blocks: each command with the output shown under it. */
function shownSessions(page: string): Array<{ command: string; output: string }> {
  const doc = readFileSync(join(ROOT, 'docs', page), 'utf8');
  const sessions: Array<{ command: string; output: string }> = [];
  for (const block of doc.matchAll(/```\n(\$ npx seine [\s\S]*?)```/g)) {
    for (const part of block[1]!.split(/^(?=\$ npx seine )/m)) {
      const [command, ...output] = part.split('\n');
      sessions.push({ command: command!.slice('$ npx '.length), output: output.join('\n') });
    }
  }
  return sessions;
}

const normal = (text: string): string => text.replace(/in \d+\.\d{3}s/g, 'in Ts').replace(/^Type check passed \(TypeScript [\w.-]+\)$/m, 'Type check passed (TypeScript X)');
/** Dots and -v lines come in the order responses arrive: compare them as sets. */
const sortedHead = (text: string): string => {
  const lines = normal(text).split('\n');
  const end = lines.findIndex((line) => line === '' || line.startsWith('='.repeat(10)) || line.startsWith('-'.repeat(10)));
  const head = lines.slice(0, end).map((line) => (/^[.FE]+$/.test(line) ? [...line].sort().join('') : line)).sort();
  return [...head, ...lines.slice(end)].join('\n');
};

let demo: DemoSite;
let dir: string;
let project: string;
beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  demo = await startDemoSite();
  dir = mkdtempSync(join(tmpdir(), 'seine-toolkit-doc-'));
  expect((await runSeine(['startproject', 'tutorial'], dir)).status).toBe(0);
  project = join(dir, 'tutorial');
  // What `npm install` in the project would provide (seine check type-checks with it), linked from this checkout.
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', 'seine'));
  for (const name of ['typescript', '@types/node']) symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name));
  const settings = join(project, 'tutorial', 'settings.ts');
  writeFileSync(settings, readFileSync(settings, 'utf8').replace('export const DOWNLOAD_DELAY = 1;', 'export const DOWNLOAD_DELAY = 0;'));
}, 120_000);
afterAll(async () => {
  await demo.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('docs/contracts.md', () => {
  const examples = docExamples('contracts.md');
  const spider = (): string => examples.get('contracts-spider')!.replaceAll('http://127.0.0.1:8000/', demo.url);

  it('the shown seine check sessions, in a project with the example spider, against the demo site', async () => {
    writeFileSync(join(project, 'tutorial', 'spiders', 'quotes.ts'), spider());
    const sessions = shownSessions('contracts.md');
    expect(sessions.map((session) => session.command)).toEqual(['seine check', 'seine check -l', 'seine check -v', 'seine check']);
    for (const [index, { command, output }] of sessions.entries()) {
      // The last session is the one "had parse's @url named the last page".
      if (index === 3) writeFileSync(join(project, 'tutorial', 'spiders', 'quotes.ts'), spider().replace(`@url ${demo.url}page/1/`, `@url ${demo.url}page/10/`));
      const run = await runSeine(command.split(' ').slice(1), project);
      const shown = run.stdout + run.stderr;
      expect(sortedHead(shown)).toBe(sortedHead(output));
      expect(run.status).toBe(output.includes('FAILED') ? 1 : 0);
    }
  }, TIMEOUT);

  it('the custom contracts, registered in settings.ts as the page says, pass and fail a spider', async () => {
    writeFileSync(join(project, 'tutorial', 'contracts.ts'), examples.get('contracts-custom')!);
    const doc = readFileSync(join(ROOT, 'docs', 'contracts.md'), 'utf8');
    const registration = /^export const SPIDER_CONTRACTS = .*$/m.exec(doc)![0];
    const settings = join(project, 'tutorial', 'settings.ts');
    writeFileSync(settings, `${readFileSync(settings, 'utf8')}\n${registration}\n`);
    writeFileSync(join(project, 'tutorial', 'spiders', 'shop.ts'), `import { Spider, type Response } from 'seine';

export class ShopSpider extends Spider {
  static name = 'shop';

  /**
   * @url ${demo.url}page/1/
   * @has_title Quotes to Scrape
   * @prices_positive
   */
  parse(response: Response) {
    return [{ price: 3 }, { price: 0 }, { title: response.css('title::text').get() }];
  }

  /**
   * @url ${demo.url}page/2/
   * @has_title Another title
   */
  parsePage(_response: Response) {
    return [];
  }
}
`);
    const run = await runSeine(['check', 'shop', '-v'], project);
    expect(run.status).toBe(1);
    expect(normal(run.stderr).split('\n\n')[0]!.split('\n').sort()).toEqual([
      'Type check passed (TypeScript X)',
      '[shop] parse (@has_title pre-hook) ... ok',
      '[shop] parse (@prices_positive post-hook) ... FAIL',
      '[shop] parsePage (@has_title pre-hook) ... FAIL',
    ]);
    expect(run.stderr).toContain('ContractFail: 1 items have a price of 0 or less\n');
    expect(run.stderr).toContain('ContractFail: Title is "Quotes to Scrape", expected "Another title"\n');
    expect(normal(run.stderr).endsWith('Ran 3 contracts in Ts\n\nFAILED (failures=2)\n')).toBe(true);
  }, TIMEOUT);
});

describe('docs/loaders.md', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startSite({
      '/product/1': `<html><body><div class="product"><h1> Red  shoe </h1><span class="price">$ 12.50</span>
<ul><li class="tag">red</li><li class="tag"> </li><li class="tag">shoe</li></ul>
<div class="seller"><span class="name">Ann's shop</span></div></div></body></html>`,
    });
  });
  afterAll(async () => site.close());

  it('the product spider scrapes the item its comment shows', async () => {
    const source = docExamples('loaders.md').get('product-loader')!;
    writeFileSync(join(dir, 'product.ts'), source.replace('https://example.com/product/1', site.url('/product/1')));
    const run = await runSeine(['runspider', 'product.ts', '-O', 'product.json', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(run.status).toBe(0);
    const shown = /return loader\.loadItem\(\); \/\/ a Product: (.*)$/m.exec(source)![1]!;
    // The comment's object literal, evaluated.
    const expected = new Function(`return (${shown});`)() as unknown;
    expect(JSON.parse(readFileSync(join(dir, 'product.json'), 'utf8'))).toEqual([expected]);
  }, TIMEOUT);
});

describe('docs/requests.md', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startToolkitSite();
  });
  afterAll(async () => site.close());

  it('the login spider submits the form with its CSRF field and reads the page only visible logged in', async () => {
    const source = docExamples('requests.md').get('login')!;
    writeFileSync(join(dir, 'login.ts'), source.replace('https://example.com/', site.url('/')));
    const run = await runSeine(['runspider', 'login.ts', '-O', 'login.json', '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'login.json'), 'utf8'))).toEqual([{ user: 'ann' }]);
    expect(site.requests.find((hit) => hit.method === 'POST')?.body).toMatch(/^csrf_token=csrf-7c1e&/);
  }, TIMEOUT);
});

describe('docs/pipelines.md and docs/middlewares.md', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startSite({
      '/books.html': `<html><body><ul>
<li class="book"><h3>Emma</h3><span class="price">£12.00</span></li>
<li class="book"><h3>Dune</h3></li>
<li class="book"><h3>Emma</h3><span class="price">£11.00</span></li>
<li class="book"><h3>Ulysses</h3><span class="price">£8.00</span></li>
</ul></body></html>`,
      '/api/status': (req, res) => {
        res.writeHead(req.headers['x-api-key'] === 'k-123' ? 200 : 401, { 'Content-Type': 'text/html' }).end('<title>API up</title>');
      },
      '/maintenance.html': '<title>From the server</title>',
      '/page/1/': '<html><head><title>One</title></head><body><a href="/page/2/">2</a> <a href="/about/">about</a></body></html>',
      '/page/2/': '<html><head><title>Two</title></head><body><a href="/about/">about</a></body></html>',
      '/about/': '<html><head><title>About</title></head><body></body></html>',
    });
  });
  afterAll(async () => site.close());

  async function runExample(page: string, name: string): Promise<{ items: unknown[]; stderr: string }> {
    const source = docExamples(page).get(name)!.replaceAll('http://127.0.0.1:8000/', site.url('/'));
    writeFileSync(join(dir, `${name}.ts`), source);
    const run = await runSeine(['runspider', `${name}.ts`, '-O', `${name}.json`, '-s', 'TELNETCONSOLE_ENABLED=false'], dir);
    expect(run.status).toBe(0);
    return { items: JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as unknown[], stderr: run.stderr };
  }

  it('pipelines: the feed and the log lines the page shows', async () => {
    const { items, stderr } = await runExample('pipelines.md', 'pipelines');
    const doc = readFileSync(join(ROOT, 'docs', 'pipelines.md'), 'utf8');
    const session = /```\n\$ npx seine runspider books\.ts -O books\.json\n([\s\S]*?)\$ cat books\.json\n([\s\S]*?)```/.exec(doc)!;
    expect(items).toEqual(JSON.parse(session[2]!));
    for (const line of session[1]!.split('\n').filter((l) => l !== '' && l !== '…')) {
      expect(stderr).toContain(`${line}\n`);
    }
  }, TIMEOUT);

  it('downloader middleware: the API request carries the key, the maintenance page is answered without a download', async () => {
    site.reset();
    const { items } = await runExample('middlewares.md', 'downloader-middleware');
    expect(items).toEqual(expect.arrayContaining([
      { url: site.url('/api/status'), status: 200, title: 'API up' },
      { url: site.url('/maintenance.html'), status: 200, title: 'Back soon' },
    ]));
    expect(items).toHaveLength(2);
    expect(site.hits).not.toContain('/maintenance.html');
  }, TIMEOUT);

  it('spider middleware: items stamped with their page, requests outside /page/ dropped', async () => {
    site.reset();
    const { items } = await runExample('middlewares.md', 'spider-middleware');
    expect(items).toEqual(expect.arrayContaining([
      { title: 'One', source: site.url('/page/1/') },
      { title: 'Two', source: site.url('/page/2/') },
    ]));
    expect(items).toHaveLength(2);
    expect(site.hits).not.toContain('/about/');
  }, TIMEOUT);
});
