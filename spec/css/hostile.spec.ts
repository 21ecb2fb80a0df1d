/**
 * Hostile CSS ("Hostile input" issue). Combinator chains and selector groups
 * of any length translate (the translator loops along the chain instead of
 * recursing), and so do their XPath; a compound selector of more than
 * MAX_CSS_COMPOUND simple selectors is a CssError naming the limit, never a
 * RangeError.
 */
import { describe, expect, it } from '@jest/globals';
import { CssError, cssToXPath } from '../../src/css/index.js';
import { MAX_CSS_COMPOUND } from '../../src/css/parser.js';
import { Selector } from '../../src/index.js';

const sel = new Selector({ text: '<div class="a"><div class="a"><p class="a">x</p></div></div>' });

function cssError(query: string): CssError {
  try {
    cssToXPath(query);
  } catch (error) {
    expect(error).toBeInstanceOf(CssError);
    return error as CssError;
  }
  throw new Error(`no error for ${query.slice(0, 40)}`);
}

describe('long CSS selectors', () => {
  it("translates a descendant chain of 10,000 steps ('div ' × 10,000) and runs it", () => {
    const query = 'div '.repeat(10_000);
    const xpath = cssToXPath(query);
    expect(xpath.startsWith('descendant-or-self::div/descendant-or-self::*/div/')).toBe(true);
    expect(xpath.length).toBe('descendant-or-self::div'.length + 9_999 * '/descendant-or-self::*/div'.length);
    expect(sel.css(query).length).toBe(0);
    expect(sel.css('div '.repeat(2) + 'p').length).toBe(1);
  });

  it('translates child and sibling chains of 10,000', () => {
    expect(sel.css(Array(10_000).fill('div').join(' > ')).length).toBe(0);
    expect(cssToXPath(Array(10_000).fill('p').join(' + ')).length).toBeGreaterThan(10_000 * 40);
    expect(cssToXPath(Array(10_000).fill('p').join(' ~ ')).length).toBeGreaterThan(10_000 * 20);
  });

  it('translates a group of 20,000 selectors and runs it', () => {
    expect(sel.css(Array(20_000).fill('p, div').join(', ')).length).toBe(3);
  });

  it.each([
    ['.a × 100,000', '.a'.repeat(100_000), 2 * MAX_CSS_COMPOUND],
    ['.a × 1,000', '.a'.repeat(1_000), 2 * MAX_CSS_COMPOUND],
    // :not(.a) is two simple selectors: the negation and the class inside it.
    [':not(.a) × 10,000', 'div' + ':not(.a)'.repeat(10_000), 3 + 8 * (MAX_CSS_COMPOUND / 2)],
    ['[x] × 10,000', 'p' + '[x]'.repeat(10_000), 1 + 3 * MAX_CSS_COMPOUND],
    [':is() of 10,000 selectors', ':is(' + Array(10_000).fill('a').join(', ') + ')', 4 + 3 * (MAX_CSS_COMPOUND - 1)],
    [':is() nested 10,000 deep', ':is('.repeat(10_000) + 'a' + ')'.repeat(10_000), 4 * (MAX_CSS_COMPOUND / 2)],
  ])('%s is a CssError naming the limit, with the query shortened', (_name, query, position) => {
    const error = cssError(query);
    expect(error.reason).toMatch(/^a compound selector may combine at most 100 simple selectors/);
    expect(error.position).toBe(position);
    expect(error.query).toBe(query);
    expect(error.message.length).toBeLessThan(600);
  });

  it(`accepts ${MAX_CSS_COMPOUND} simple selectors in a compound, in each compound of a chain, and evaluates them`, () => {
    const compound = 'div' + '.a'.repeat(MAX_CSS_COMPOUND);
    expect(sel.css(compound).length).toBe(2);
    expect(sel.css(`${compound} ${compound} p${'.a'.repeat(MAX_CSS_COMPOUND)}`).length).toBe(1);
    expect(sel.css('p' + ':not(.b)'.repeat(MAX_CSS_COMPOUND / 2)).length).toBe(1);
    expect(sel.css(':is('.repeat(MAX_CSS_COMPOUND / 2) + 'p' + ')'.repeat(MAX_CSS_COMPOUND / 2)).length).toBe(1);
    expect(sel.css(':is(' + Array(MAX_CSS_COMPOUND - 1).fill('p').join(', ') + ')').length).toBe(1);
  });
});
