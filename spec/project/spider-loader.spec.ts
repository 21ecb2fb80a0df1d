/** The spider files are compiled by seine's loader (src/project/compile-typescript.ts) and imported in-process. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { SpiderLoader, declaresName } = await import('../../src/project/spider-loader.js');
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
  const many: Record<string, string> = {};
  for (let i = 0; i < 20; i++) many[`shop/spiders/s${String(i).padStart(2, '0')}.ts`] = spider(`S${i}`, `s${String(i).padStart(2, '0')}`);
  many['shop/spiders/broken.ts'] = 'export class Broken extends Spider {\n';
  files(join(dir, 'many'), many);
  files(join(dir, 'computed'), {
    'shop/spiders/plain.ts': spider('PlainSpider', 'plain'),
    'shop/spiders/computed.ts': "export class ComputedSpider extends Spider {\n  static name = ['comp', 'uted'].join('');\n}\n",
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

  it('for one spider by name, takes it from the files that declare it, and reports a broken spider file elsewhere without stopping', async () => {
    const loader = await SpiderLoader.loadNamed(join(dir, 'many'), ['shop/spiders'], 's07');
    expect(loader.list()).toEqual(['s07']);
    expect(loader.load('s07').file).toBe(join('shop', 'spiders', 's07.ts'));
    expect(loader.failures.map((failure) => [failure.file, failure.error.message])).toEqual([
      ['shop/spiders/broken.ts', 'Could not load shop/spiders/broken.ts: shop/spiders/broken.ts:3:1: Expected identifier but found end of file'],
    ]);
  });

  it('loads every spider file that loads; one that does not is a failure, and a name not found may be in it', async () => {
    const loader = await SpiderLoader.load(join(dir, 'many'), ['shop/spiders']);
    expect(loader.list()).toHaveLength(20);
    expect(loader.failures.map((failure) => failure.file)).toEqual(['shop/spiders/broken.ts']);
    expect(() => loader.load('nope')).toThrow(
      new SpiderNotFoundError('nope', loader.list(), ['shop/spiders/broken.ts']),
    );
    expect(() => loader.load('nope')).toThrow(/^Spider not found: nope \(available spiders: s00, .*, s19\); it may be in a file that could not be loaded: shop\/spiders\/broken\.ts \(see the WARNING above\)$/);
  });

  it('for a name no file declares as written, imports them all, with load()\'s errors', async () => {
    const computed = await SpiderLoader.loadNamed(join(dir, 'computed'), ['shop/spiders'], 'computed');
    expect(computed.list()).toEqual(['computed', 'plain']);
    await expect(SpiderLoader.loadNamed(join(dir, 'twins'), ['shop/spiders'], 'same')).rejects.toThrow(DuplicateSpiderError);
    const unknown = await SpiderLoader.loadNamed(join(dir, 'ok'), ['shop/spiders'], 'nope');
    expect(() => unknown.load('nope')).toThrow('Spider not found: nope (available spiders: authors, quotes)');
  });

  it('reads a static name in the ways TypeScript lets it be written', () => {
    for (const source of ["static name = 'q';", 'static name = "q";', 'static name = `q`;', "static override name = 'q'", "static readonly name: string = 'q'", "static   name='q'"]) {
      expect([source, declaresName(source, 'q')]).toEqual([source, true]);
    }
    for (const source of ["name = 'q';", "static name = 'qq';", "static title = 'q';", "static name = 'a.q'"]) {
      expect([source, declaresName(source, 'q')]).toEqual([source, false]);
    }
    expect(declaresName("static name = 'a.q'", 'a.q')).toBe(true);
    expect(declaresName("static name = 'a-q'", 'a.q')).toBe(false);
  });
});
