/** Jest loads the spider files itself (swc); the CLI's tsx hooks are replaced by no-ops here. */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

jest.unstable_mockModule('tsx/esm/api', () => ({ register: () => () => {} }));
// Only the loader hook is stubbed; createRequire stays real (the XPath regex engine loads re2-wasm with it).
jest.unstable_mockModule('node:module', () => ({ register: () => {}, createRequire }));
const { SpiderLoader } = await import('../../src/project/spider-loader.js');
const { DuplicateSpiderError, ProjectConfigError, SpiderNotFoundError } = await import('../../src/project/project-errors.js');

const SPIDER_MODULE = fileURLToPath(new URL('../../src/contracts/spider.ts', import.meta.url));
let dir: string;

function spider(className: string, name: string | null): string {
  const own = name === null ? '' : `  static name = '${name}';\n`;
  return `export class ${className} extends Spider {\n${own}}\n`;
}

function files(root: string, entries: Record<string, string>): void {
  for (const [file, text] of Object.entries(entries)) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), `import { Spider } from '${SPIDER_MODULE}';\n${text}`);
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-spider-loader-'));
  files(join(dir, 'ok'), {
    'shop/spiders/index.ts': "export * from './quotes.js';\n",
    'shop/spiders/quotes.ts': spider('QuotesSpider', 'quotes') + spider('BaseSpider', null),
    'shop/spiders/nested/authors.ts': spider('AuthorsSpider', 'authors'),
    'shop/spiders/types.d.ts': 'export {};\n',
  });
  files(join(dir, 'twins'), {
    'shop/spiders/a.ts': spider('ASpider', 'same'),
    'shop/spiders/b.ts': spider('BSpider', 'same'),
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SpiderLoader', () => {
  it('finds the named spider classes in every .ts file under SPIDER_MODULES, a re-export counting once', async () => {
    const loader = await SpiderLoader.load(join(dir, 'ok'), ['shop/spiders']);
    expect(loader.list()).toEqual(['authors', 'quotes']);
    expect(loader.load('quotes').file).toBe(join('shop', 'spiders', 'index.ts'));
    expect(loader.load('authors').spiderClass.name).toBe('authors');
  });

  it('accepts dotted module names', async () => {
    expect((await SpiderLoader.load(join(dir, 'ok'), ['shop.spiders.nested'])).list()).toEqual(['authors']);
  });

  it('names the existing spiders when a name is unknown', async () => {
    const loader = await SpiderLoader.load(join(dir, 'ok'), ['shop/spiders']);
    expect(() => loader.load('nope')).toThrow(new SpiderNotFoundError('nope', ['authors', 'quotes']));
    expect(() => loader.load('nope')).toThrow('Spider not found: nope (available spiders: authors, quotes)');
  });

  it('says how to make a first spider when there is none', async () => {
    const loader = await SpiderLoader.load(join(dir, 'ok'), []);
    expect(() => loader.load('x')).toThrow(
      'Spider not found: x (the project has no spiders yet: create one with `seine genspider <name> <domain>`)',
    );
  });

  it('refuses two spiders with one name, naming both files', async () => {
    await expect(SpiderLoader.load(join(dir, 'twins'), ['shop/spiders'])).rejects.toThrow(
      new DuplicateSpiderError('same', [join('shop', 'spiders', 'a.ts'), join('shop', 'spiders', 'b.ts')]),
    );
  });

  it('refuses a SPIDER_MODULES entry that names nothing', async () => {
    await expect(SpiderLoader.load(join(dir, 'ok'), ['shop/robots'])).rejects.toThrow(ProjectConfigError);
  });
});
