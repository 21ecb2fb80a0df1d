import { describe, expect, it } from '@jest/globals';
import { cssToXPath } from '../../src/css/index.js';

describe('cssToXPath', () => {
  it('uses the HTML dialect by default, lower-casing element and attribute names', () => {
    expect(cssToXPath('DIV[Data-X=Y]')).toBe("descendant-or-self::div[@data-x = 'Y']");
    expect(cssToXPath('DIV[Data-X=Y]', 'html')).toBe("descendant-or-self::div[@data-x = 'Y']");
  });

  it('keeps names as written in the XML dialect', () => {
    expect(cssToXPath('DIV[Data-X=Y]', 'xml')).toBe("descendant-or-self::DIV[@Data-X = 'Y']");
  });

  it('writes namespace prefixes as XPath prefixes, never lower-cased', () => {
    expect(cssToXPath('Atom|Link[ns|href]', 'html')).toBe('descendant-or-self::Atom:link[@ns:href]');
    expect(cssToXPath('atom|link', 'xml')).toBe('descendant-or-self::atom:link');
  });

  it('joins a selector group with " | ", each part with the prefix', () => {
    expect(cssToXPath('a, b > c')).toBe('descendant-or-self::a | descendant-or-self::b/c');
  });

  it('puts the given prefix before each selector, including an empty one', () => {
    expect(cssToXPath('a, b', 'html', '')).toBe('a | b');
    expect(cssToXPath('li.x', 'html', 'descendant::')).toBe(
      "descendant::li[@class and contains(concat(' ', normalize-space(@class), ' '), ' x ')]",
    );
  });

  it("translates parsel's ::text and ::attr() pseudo-elements", () => {
    expect(cssToXPath('p::text')).toBe('descendant-or-self::p/text()');
    expect(cssToXPath('p ::text')).toBe('descendant-or-self::p/descendant-or-self::text()');
    expect(cssToXPath('*::text')).toBe('descendant-or-self::text()');
    expect(cssToXPath('a::attr(href)')).toBe('descendant-or-self::a/@href');
    expect(cssToXPath('a ::attr(href)')).toBe('descendant-or-self::a/descendant-or-self::*/@href');
  });

  it('quotes values holding both kinds of quote with concat()', () => {
    expect(cssToXPath(`[a="it's \\"x\\""]`)).toBe(`descendant-or-self::*[@a = concat('it',"'",'s "x"')]`);
  });

  it('caches per dialect and prefix: the same query gives the same string in each', () => {
    const html = cssToXPath('Feed > Entry');
    const xml = cssToXPath('Feed > Entry', 'xml');
    expect(html).toBe('descendant-or-self::feed/entry');
    expect(xml).toBe('descendant-or-self::Feed/Entry');
    expect(cssToXPath('Feed > Entry')).toBe(html);
    expect(cssToXPath('Feed > Entry', 'xml', '')).toBe('Feed/Entry');
  });

  it('stays correct past the cache limit', () => {
    for (let i = 0; i < 1500; i++) expect(cssToXPath(`.c${i}`, 'xml', '')).toContain(`' c${i} '`);
    expect(cssToXPath('.c0', 'xml', '')).toBe("*[@class and contains(concat(' ', normalize-space(@class), ' '), ' c0 ')]");
  });
});
