/**
 * A 20 MB page on a single line ("Hostile input" issue): it parses and a CSS
 * query over it returns every match. Speed and memory are measured outside
 * the tests (docs/performance.md, "A 20 MB single-line page").
 */
import { describe, expect, it } from '@jest/globals';
import { Selector } from '../../src/index.js';

function bigPage(bytes: number): { text: string; items: number } {
  const parts = ['<html><head><title>big</title></head><body><div id="list">'];
  let items = 0;
  let length = 0;
  while (length < bytes) {
    const item = `<div class="item"><a href="/p/${items}" class="link">Item ${items}</a><span class="price">$${items % 100}.99</span></div>`;
    parts.push(item);
    length += item.length;
    items++;
  }
  parts.push('</div></body></html>');
  return { text: parts.join(''), items };
}

describe('a 20 MB single-line page', () => {
  it('parses, and css() returns every match', () => {
    const { text, items } = bigPage(20_000_000);
    expect(text.includes('\n')).toBe(false);
    const sel = new Selector({ text });
    const hrefs = sel.css('div.item a::attr(href)');
    expect(hrefs.length).toBe(items);
    expect(hrefs[0]!.get()).toBe('/p/0');
    expect(hrefs[-1]!.get()).toBe(`/p/${items - 1}`);
    expect(sel.xpath('count(//span[@class="price"])').get()).toBe(`${items}.0`);
    expect(sel.css('#list > div:last-child a::text').get()).toBe(`Item ${items - 1}`);
  });
});

describe('a SelectorList of 200,000 results', () => {
  it('slices and filters (they spread the results as arguments, and overflowed the stack)', () => {
    const items = new Selector({ text: '<ul>' + '<li>x</li>'.repeat(200_000) + '</ul>' }).css('li');
    expect(items.length).toBe(200_000);
    const rest = items.slice(1);
    expect(rest.length).toBe(199_999);
    expect(rest.css('::text').length).toBe(199_999);
    expect(items.filter((_s, i) => i % 2 === 0).length).toBe(100_000);
    expect(() => rest[199_999]).toThrow('list index out of range');
  });
});
