/**
 * Reading callbacks' doc comments from TypeScript source: the contracts of
 * `seine check` live there, and the scanner must not be misled by strings,
 * template literals, regular expressions or nested classes.
 */
import { describe, expect, it } from '@jest/globals';
import { classMethodDocs } from '../../src/check-contracts/doc-comments.js';
import { contractLines, SourceDocs, testedMethods } from '../../src/check-contracts/tested-methods.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function docsOf(source: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [cls, members] of classMethodDocs(source)) out[cls] = Object.fromEntries([...members].map(([name, doc]) => [name, doc.doc]));
  return out;
}

describe('classMethodDocs', () => {
  it('takes a /** */ comment before a method, with modifiers, generators, accessors, fields and quoted names', () => {
    const source = `
export class QuotesSpider extends Spider {
  static name = 'quotes';
  /**
   * Quotes of a page.
   * @url http://example.com/
   * @returns items 1
   */
  async *parse(response: Response): AsyncGenerator<unknown> {}
  /** @url http://example.com/a */ private static async parseA() {}
  /** star */ *parseStar() {}
  /** generic */ parseGeneric<T>(value: T) {}
  /** arrow */ parseArrow = (response: Response) => [];
  /** optional */ parseOptional?(): void;
  /** getter */ get total() { return 1; }
  /** quoted */ 'parse-quoted'() {}
}`;
    expect(docsOf(source)).toEqual({
      QuotesSpider: {
        parse: 'Quotes of a page.\n@url http://example.com/\n@returns items 1',
        parseA: '@url http://example.com/a',
        parseStar: 'star',
        parseGeneric: 'generic',
        parseArrow: 'arrow',
        parseOptional: 'optional',
        total: 'getter',
        'parse-quoted': 'quoted',
      },
    });
  });

  it('is not misled by braces and comments in strings, templates and regular expressions', () => {
    const source = `
const a = '} class Fake { /** no */ m() {} }';
const b = \`\${ { x: '}' }.x } class Fake2 { /** no */ m() {} } \${ \`\${1}\` }\`;
const r = /class Fake3 {[}]/g;
const d = 6 / 2 / 1;
export class Real extends Spider {
  /** first */ parse(response) {
    const o = { class: 1, s: "}", t: \`}\${'{'}\` };
    if (/}/.test(s) && d / 2 > 1) {}
    /** a comment inside a method documents nothing */
    const x = 1;
  }
  /** second */ parseNext() {}
}`;
    expect(docsOf(source)).toEqual({ Real: { parse: 'first', parseNext: 'second' } });
  });

  it('keeps classes apart, nested or not, and leaves anonymous classes and plain comments out', () => {
    const source = `
class A { /** a */ m() { return class B { /** b */ n() {} }; } /* not a doc */ o() {} }
const C = class { /** anonymous */ m() {} };
class D extends A { /** d */ m() {} }`;
    expect(docsOf(source)).toEqual({ A: { m: 'a' }, B: { n: 'b' }, D: { m: 'd' } });
  });

  it('a comment followed by something other than a member documents nothing', () => {
    expect(docsOf('class A { /** x */ @decorate m() {} /** y */ ; n() {} }')).toEqual({});
  });
});

describe('contract lines and tested methods', () => {
  it("reads '@name args' lines as Scrapy does: args split on whitespace, [''] when there are none", () => {
    expect(contractLines('Text\n@url http://a/  \n @returns items 1  2\n@post\nnot @this')).toEqual([
      { name: 'url', args: ['http://a/'] },
      { name: 'returns', args: ['items', '1', '2'] },
      { name: 'post', args: [''] },
    ]);
  });

  it('tests methods with @url or a known contract, leaves JSDoc tags alone, follows the class chain', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seine-docs-'));
    const file = join(dir, 'spiders.ts');
    writeFileSync(file, `
class Base {
  /** @url http://a/
   * @returns items */ parseBase() {}
  /** @url http://a/ */ hidden() {}
}
class Child extends Base {
  /** @param x the value
   * @returns {string} the cleaned value */ clean(x) {}
  /** @url http://b/
   * @param response the page
   * @returns items 1 */ parse() {}
  hidden() {}
  /** @returns requests 2 */ parseNoUrl() {}
  /** @scrapes title */ parseScrapes() {}
}`);
    // The classes as the loaded module would have them.
    class Base {
      parseBase(): void {}
      hidden(): void {}
    }
    class Child extends Base {
      clean(): void {}
      parse(): void {}
      override hidden(): void {}
      parseNoUrl(): void {}
      parseScrapes(): void {}
    }
    const tested = testedMethods(Child, new SourceDocs([file]), new Set(['url', 'returns', 'scrapes', 'meta', 'cb_kwargs']));
    expect(tested).toEqual([
      { name: 'parse', lines: [{ name: 'url', args: ['http://b/'] }, { name: 'returns', args: ['items', '1'] }] },
      { name: 'parseBase', lines: [{ name: 'url', args: ['http://a/'] }, { name: 'returns', args: ['items'] }] },
      { name: 'parseNoUrl', lines: [{ name: 'returns', args: ['requests', '2'] }] },
      { name: 'parseScrapes', lines: [{ name: 'scrapes', args: ['title'] }] },
    ]);
  });
});
