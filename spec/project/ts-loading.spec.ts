/**
 * How seine loads a project's TypeScript (src/project/compile-typescript.ts),
 * through the real binary: files import each other in both styles users
 * write (`./items.js` for items.ts, `../lib` for lib/index.ts), a module
 * imported by the spider and by the pipelines is one module (its classes
 * pass `instanceof` in both), `import.meta.url` is the source file's, stack
 * traces name the `.ts` file and line, a compiled copy is reused until its
 * source changes, mistakes are one line, and SEINE_TS_LOADER=tsx still
 * loads the same project through tsx.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { resolveLog } from '../helpers/resolve-log.js';
import { ensureBuilt, logMessages, runSeine } from '../cli/fixtures/run-seine.js';

const TIMEOUT = 60_000;

// Line 15 throws when the spider argument fail=1 is given: the stack trace must name this line.
const QUOTES_SPIDER = `import { readFileSync } from 'node:fs';
import { Request, Spider, type Response } from 'seine';
import { Quote } from '../items.js';
import { decorate } from '../lib';

const SUFFIX = readFileSync(new URL('./suffix.txt', import.meta.url), 'utf8');

export class QuotesSpider extends Spider {
  static name = 'quotes';
  declare site: string;
  declare fail?: string;

  *parse(response: Response) {
    for (const text of response.css('p.q::text').getall()) {
      if (this.fail === '1') throw new Error('no quotes today: ' + text);
      yield new Quote(decorate(text, SUFFIX));
    }
  }

  async *start() {
    yield new Request(this.site);
  }
}
`;

let site: TestSite;
let dir: string;
let project: string;

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  site = await startSite({ '/': '<html><body><p class="q">hello</p><p class="q">world</p></body></html>' });
  dir = mkdtempSync(join(tmpdir(), 'seine-ts-loading-'));
  expect((await runSeine(['startproject', 'shop'], dir)).status).toBe(0);
  project = join(dir, 'shop');
  // A node_modules folder, as an installed project has: the compiled copies go under it.
  mkdirSync(join(project, 'node_modules'));
  write(join(project, 'shop', 'items.ts'), `export enum Kind { Quote = 'quote' }
export class Quote {
  readonly kind = Kind.Quote;
  constructor(public readonly text: string) {}
}
`);
  write(join(project, 'shop', 'lib', 'index.ts'), `export { decorate } from './decorate.js';\n`);
  write(join(project, 'shop', 'lib', 'decorate.ts'), `export function decorate(text: string, suffix: string): string {
  return '<' + text + suffix + '>';
}
`);
  write(join(project, 'shop', 'spiders', 'suffix.txt'), '!');
  write(join(project, 'shop', 'spiders', 'quotes.ts'), QUOTES_SPIDER);
  write(join(project, 'shop', 'pipelines.ts'), `import { Quote } from './items';

export class CheckPipeline {
  processItem(item: unknown) {
    const quote = item as Quote;
    return { text: quote.text, kind: quote.kind, sameClass: item instanceof Quote };
  }
}
`);
  const settings = join(project, 'shop', 'settings.ts');
  const text = readFileSync(settings, 'utf8').replace('export const ROBOTSTXT_OBEY = true;', 'export const ROBOTSTXT_OBEY = false;');
  writeFileSync(settings, text + "\nexport const ITEM_PIPELINES = { CheckPipeline: 300 };\n");
}, 120_000);

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

function crawl(...extra: string[]) {
  return runSeine(['crawl', 'quotes', '-a', `site=${site.url('/')}`, '-O', 'out.json', '-s', 'DOWNLOAD_DELAY=0', ...extra], project);
}

function compiledCopy(file: string): string {
  return join(project, 'node_modules', '.cache', 'seine', 'ts', file + '.mjs');
}

describe('a project in TypeScript', () => {
  it('imports its own files in both styles, one module instance for spider and pipelines, import.meta.url of the source', async () => {
    const run = await crawl();
    expect(run.stderr).not.toMatch(/ERROR|Traceback|Could not load/);
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(join(project, 'out.json'), 'utf8'))).toEqual([
      { text: '<hello!>', kind: 'quote', sameClass: true },
      { text: '<world!>', kind: 'quote', sameClass: true },
    ]);
    // The copies sit under the project's node_modules, where package imports resolve as from the source.
    for (const file of ['shop/spiders/quotes.ts', 'shop/items.ts', 'shop/lib/index.ts', 'shop/lib/decorate.ts', 'shop/pipelines.ts', 'shop/settings.ts']) {
      expect(existsSync(compiledCopy(file))).toBe(true);
    }
  }, TIMEOUT);

  it('a second run reuses the compiled copies; an edited source is compiled again', async () => {
    expect((await crawl()).status).toBe(0);
    const before = statSync(compiledCopy('shop/lib/decorate.ts')).mtimeMs;
    expect((await crawl()).status).toBe(0);
    expect(statSync(compiledCopy('shop/lib/decorate.ts')).mtimeMs).toBe(before);
    const decorate = join(project, 'shop', 'lib', 'decorate.ts');
    const original = readFileSync(decorate, 'utf8');
    try {
      writeFileSync(decorate, original.replace("'<' + text + suffix + '>'", "'[' + text + suffix + ']'"));
      expect((await crawl()).status).toBe(0);
      expect(JSON.parse(readFileSync(join(project, 'out.json'), 'utf8'))[0].text).toBe('[hello!]');
    } finally {
      writeFileSync(decorate, original);
    }
  }, TIMEOUT);

  it("an error in a callback names the spider's .ts file and line", async () => {
    const run = await crawl('-a', 'fail=1');
    const messages = logMessages(run.stderr).join('\n');
    expect(messages).toContain('Error: no quotes today: hello');
    expect(messages).toContain(`${join(project, 'shop', 'spiders', 'quotes.ts')}:15:`);
  }, TIMEOUT);

  it('never imports tsx; SEINE_TS_LOADER=tsx loads the same project through tsx', async () => {
    const imports = resolveLog(dir, "specifier.startsWith('tsx')");
    const compiled = await runSeine(['crawl', 'quotes', '-a', `site=${site.url('/')}`, '-O', 'out.json', '-s', 'DOWNLOAD_DELAY=0'], project, { NODE_OPTIONS: `--import=${imports.hook}` });
    expect(compiled.status).toBe(0);
    expect(imports.specifiers()).toEqual([]);
    rmSync(join(project, 'out.json'));
    const viaTsx = await runSeine(['crawl', 'quotes', '-a', `site=${site.url('/')}`, '-O', 'out.json', '-s', 'DOWNLOAD_DELAY=0'], project, { NODE_OPTIONS: `--import=${imports.hook}`, SEINE_TS_LOADER: 'tsx' });
    expect(viaTsx.status).toBe(0);
    expect(imports.specifiers()).toContain('tsx/esm/api');
    expect(JSON.parse(readFileSync(join(project, 'out.json'), 'utf8'))).toHaveLength(2);
  }, TIMEOUT);
});

describe('mistakes in a TypeScript file are one line', () => {
  it('a relative import that names no file', async () => {
    const file = join(dir, 'missing.ts');
    writeFileSync(file, "import { Spider } from 'seine';\nimport { helper } from './nowhere.js';\nexport class M extends Spider { static name = helper('m'); }\n");
    const run = await runSeine(['runspider', file, '--nolog'], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`seine: Could not load ${file}: Cannot find './nowhere.js' imported from ${file}\n`);
  }, TIMEOUT);

  it('a file outside any node_modules folder is compiled into the temporary folder and runs', async () => {
    const loose = mkdtempSync(join(tmpdir(), 'seine-loose-'));
    try {
      writeFileSync(join(loose, 'one.ts'), `import { Spider, type Response } from 'seine';
export class One extends Spider {
  static name = 'one';
  declare site: string;
  async *start() { yield* [] as never[]; }
}
`);
      const run = await runSeine(['runspider', 'one.ts', '--nolog'], loose);
      expect(run).toMatchObject({ status: 0, stderr: '' });
      expect(existsSync(join(loose, 'node_modules'))).toBe(false);
    } finally {
      rmSync(loose, { recursive: true, force: true });
    }
  }, TIMEOUT);
});
