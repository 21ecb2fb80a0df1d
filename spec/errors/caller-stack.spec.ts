/**
 * An error in how seine was called (invalid XPath or CSS, a wrong selector
 * argument, an index past a list's end) points at the caller: its stack has
 * the caller's frames only. In the crawl log, "Spider error processing" is
 * followed by the spider's own file and line, not seine's bundled chunks.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Selector } from '../../src/selector/index.js';
import { startSite, type TestSite } from '../helpers/site-server.js';
import { ensureBuilt, runSeine } from '../cli/fixtures/run-seine.js';

const PAGE = '<html><body><div class="quote">hi</div></body></html>';

describe('in process', () => {
  const thrownBy = (work: () => unknown): Error => {
    try {
      work();
    } catch (error) {
      return error as Error;
    }
    throw new Error('nothing was thrown');
  };
  const framesOf = (error: Error): string[] => error.stack!.split('\n').slice(1);

  it.each([
    ['an invalid XPath', () => new Selector({ text: PAGE }).xpath('//div['), "XPathError: Invalid XPath: '//div[' at position 6: expected an expression, found the end of the expression"],
    ['an invalid CSS selector', () => new Selector({ text: PAGE }).css('div['), "CssError: Invalid CSS selector 'div[' at position 4: expected an attribute name or '*', got end of input"],
    ['a wrong re() argument', () => new Selector({ text: PAGE }).css('div').re(42 as never), "BadArgumentError: SelectorList.re() needs the regular expression as a RegExp or a string (/\\d+/ or '\\\\d+'), got a number (42)"],
    ['an index past the end', () => new Selector({ text: PAGE }).css('p')[0], 'IndexError: list index out of range'],
  ])('%s: the stack starts at the caller and names none of seine\'s files', (_what, work, first) => {
    const error = thrownBy(work);
    expect(error.stack!.split('\n')[0]).toBe(first);
    expect(framesOf(error)[0]).toContain('caller-stack.spec.ts:');
    expect(framesOf(error).filter((line) => line.includes('/src/'))).toEqual([]);
  });

  it('finds the caller under a query nested deeper than the default stack limit', () => {
    const deep = `//div[${'('.repeat(50)}`;
    expect(framesOf(thrownBy(() => new Selector({ text: PAGE }).xpath(deep)))[0]).toContain('caller-stack.spec.ts:');
  });
});

describe('in the log of a crawl (the real binary)', () => {
  let site: TestSite;
  let dir: string;

  beforeAll(async () => {
    expect(await ensureBuilt()).toBe(true);
    site = await startSite({ '/': PAGE });
    dir = mkdtempSync(join(tmpdir(), 'seine-caller-stack-'));
  }, 120_000);

  afterAll(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("follows 'Spider error processing' with the spider's file and line, and no dist/chunks line", async () => {
    const file = join(dir, 'bad-selectors.ts');
    writeFileSync(file, [
      "import { Request, Spider, type Response } from 'seine';",
      '',
      'export class BadSelectorsSpider extends Spider {',
      "  static name = 'badselectors';",
      '',
      '  async *start() {',
      `    for (const callback of [this.badXPath, this.badCss, this.badRe]) yield new Request('${site.url('/')}', { callback, dontFilter: true });`,
      '  }',
      '',
      '  *badXPath(response: Response) {',
      "    yield { text: response.xpath('//div[').get() };",
      '  }',
      '',
      '  *badCss(response: Response) {',
      "    yield { text: response.css('div[').get() };",
      '  }',
      '',
      '  async *badRe(response: Response) {',
      '    await Promise.resolve();',
      "    yield { text: response.css('div').re(42 as never) };",
      '  }',
      '}',
      '',
    ].join('\n'));
    const run = await runSeine(['runspider', file], dir);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`XPathError: Invalid XPath: '//div[' at position 6: expected an expression, found the end of the expression\n    at BadSelectorsSpider.badXPath (${file}:11:28)\n`);
    expect(run.stderr).toContain(`CssError: Invalid CSS selector 'div[' at position 4: expected an attribute name or '*', got end of input\n    at BadSelectorsSpider.badCss (${file}:15:28)\n`);
    expect(run.stderr).toContain(`BadArgumentError: SelectorList.re() needs the regular expression as a RegExp or a string (/\\d+/ or '\\\\d+'), got a number (42)\n    at BadSelectorsSpider.badRe (${file}:20:39)\n`);
    expect(run.stderr).not.toContain('dist/chunks');
    expect(run.stderr).toContain("'spider_exceptions/XPathError': 1");
  });
});
