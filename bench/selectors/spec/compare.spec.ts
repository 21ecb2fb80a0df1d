import { describe, expect, it } from '@jest/globals';
import { agreementLines, compareSet, quote } from '../compare.js';
import type { QueryValues } from '../results.js';

const q = (label: string, values: string[]): QueryValues => ({ label, values });

describe('compareSet', () => {
  it('finds no difference when every query gave the same strings', () => {
    const page = [q('css:a::attr(href)', ['/a', '/b']), q('xpath:count(//a)', ['2.0'])];
    expect(compareSet('page-10k.html', ['page-10k.html'], [page], [page])).toEqual({
      name: 'page-10k.html',
      seineStrings: 3,
      parselStrings: 3,
      countDifference: null,
      valueDifference: null,
    });
  });

  it('reports the first query whose count differs, with the page file and the first differing string', () => {
    const parsel = [[q('links', ['/a'])], [q('links', ['/a', '/b', '/c'])]];
    const seine = [[q('links', ['/a'])], [q('links', ['/a', '/c'])]];
    const result = compareSet('listing', ['listing-0001.html', 'listing-0002.html'], seine, parsel);
    expect(result.countDifference).toBe("listing-0002.html, links: seine 2 strings, parsel 3 (first difference at string #2: seine '/c' vs parsel '/b')");
  });

  it('reports a missing trailing string as nothing', () => {
    const result = compareSet('p', ['p'], [[q('x', ['a'])]], [[q('x', ['a', '\n  b'])]]);
    expect(result.countDifference).toBe("x: seine 1 strings, parsel 2 (first difference at string #2: seine nothing vs parsel '\\n  b')");
  });

  it('reports a query that threw on one side as a difference', () => {
    const seine = [[{ label: 'xpath:count(//a)', error: 'XPathError: boom' }]];
    const parsel = [[q('xpath:count(//a)', ['55.0'])]];
    expect(compareSet('p', ['p'], seine, parsel).countDifference).toBe('xpath:count(//a): seine gave an error (XPathError: boom), parsel 1 string');
  });

  it('reports a differing string where the counts agree', () => {
    const result = compareSet('p', ['p'], [[q('x', ['55'])]], [[q('x', ['55.0'])]]);
    expect(result.countDifference).toBeNull();
    expect(result.valueDifference).toBe("x: string #1: seine '55' vs parsel '55.0'");
  });
});

describe('agreementLines', () => {
  it('prints one line with the counts when everything agrees', () => {
    const agree = { seineStrings: 140080, parselStrings: 140080, countDifference: null, valueDifference: null };
    expect(agreementLines([{ name: 'page-10k.html', ...agree, seineStrings: 692, parselStrings: 692 }, { name: 'listing', ...agree }])).toEqual([
      'Result counts agree (strings extracted per set, seine = parsel): page-10k.html 692, listing 140,080.',
    ]);
  });

  it('prints a WARNING naming the set and the first difference when counts disagree', () => {
    expect(
      agreementLines([{ name: 'listing', seineStrings: 10, parselStrings: 11, countDifference: 'listing-0001.html, links: …', valueDifference: null }]),
    ).toEqual([
      'WARNING: seine and parsel extract different things from listing (seine 10 strings, parsel 11); the ratio compares unequal work. First difference: listing-0001.html, links: …',
    ]);
  });

  it('prints a WARNING when counts agree but strings differ', () => {
    expect(agreementLines([{ name: 'p', seineStrings: 1, parselStrings: 1, countDifference: null, valueDifference: "x: string #1: seine '55' vs parsel '55.0'" }])).toEqual([
      'Result counts agree (strings extracted per set, seine = parsel): p 1.',
      "WARNING: counts agree on p but the strings differ. First difference: x: string #1: seine '55' vs parsel '55.0'",
    ]);
  });
});

describe('quote', () => {
  it("shows strings the way Python's repr does, cut at 60 characters", () => {
    expect(quote("it's\n\t\"x\"")).toBe("'it\\'s\\n\\t\"x\"'");
    expect(quote('a'.repeat(70))).toBe(`'${'a'.repeat(60)}…'`);
  });
});
