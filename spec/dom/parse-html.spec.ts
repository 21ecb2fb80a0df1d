import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseHtml } from '../../src/dom/parse-html.js';
import { serializeHtml } from '../../src/dom/serialize-html.js';
import { ELEMENT, TEXT } from '../../src/dom/node.js';
import { Selector } from '../../src/selector/selector.js';

// Recorded from lxml/parsel by scripts/record-html-trees.py.
const recorded: Array<{ input: string; serialized: string[]; get: string; queries: Record<string, string[]> }> = JSON.parse(
  readFileSync(new URL('../fixtures/dom/html-trees.json', import.meta.url), 'utf8'),
);

describe('parseHtml repairs markup as lxml does', () => {
  for (const { input, serialized, get, queries } of recorded) {
    it(`builds ${JSON.stringify(input).slice(0, 70)}`, () => {
      const doc = parseHtml(input);
      expect(doc.children.map((n) => serializeHtml(n))).toEqual(serialized);
      const selector = new Selector({ text: input });
      expect(selector.get()).toBe(get);
      for (const [query, values] of Object.entries(queries)) expect([query, selector.xpath(query).getall()]).toEqual([query, values]);
    });
  }
});

describe('parseHtml tree shape', () => {
  it('keeps text whole across entities, as lxml does', () => {
    const doc = parseHtml('<p>a &amp; b &lt; c</p>');
    const p = doc.children[0]!.children[0]!.children[0]!;
    expect(p.children).toHaveLength(1);
    expect(p.children[0]!.kind).toBe(TEXT);
    expect(p.children[0]!.data).toBe('a & b < c');
  });

  it('numbers nodes in document order, attributes before children', () => {
    const doc = parseHtml('<div id="a"><p>x</p></div>');
    const div = doc.children[0]!.children[0]!.children[0]!;
    expect(div.name).toBe('div');
    expect(div.attrs[0]!.order).toBe(div.order + 1);
    expect(div.children[0]!.order).toBe(div.order + 2);
  });

  it('gives an empty <html> for empty or whitespace-only input, as parsel does', () => {
    for (const text of ['', '   \n', '<!-- only a comment -->']) {
      const doc = parseHtml(text);
      expect(doc.children).toHaveLength(1);
      expect(doc.children[0]!.kind).toBe(ELEMENT);
      expect(serializeHtml(doc.children[0]!)).toBe('<html></html>');
    }
  });

  it('gives boolean attributes their own name as value and keeps valueless ones empty', () => {
    const doc = parseHtml('<input checked foo>');
    const input = doc.children[0]!.children[0]!.children[0]!;
    expect(input.attrs.map((a) => [a.name, a.data])).toEqual([['checked', 'checked'], ['foo', '']]);
  });
});

describe('parseHtml on real pages lxml reads differently from browsers', () => {
  const html = (text: string): string => new Selector({ text }).get();

  it('starts a second top-level <html> for content after </html> on a page with a DOCTYPE, outside the root', () => {
    const selector = new Selector({ text: '<!DOCTYPE html><html><body><p>a</p></body></html><p>after</p>' });
    expect(selector.get()).toBe('<html><body><p>a</p></body></html>');
    expect(selector.xpath('//p/text()').getall()).toEqual(['a', 'after']);
    expect(selector.css('p::text').getall()).toEqual(['a']);
  });

  it('closes an open <p> at a <body> start tag', () => {
    expect(html('<p>a<body>b')).toBe('<html><body><p>a</p>b</body></html>');
  });

  it('closes <head> at <body> when </head> is missing, so /html/body queries find the body', () => {
    const selector = new Selector({ text: '<html><head><title>x</title><body><p>y</p></body></html>' });
    expect(selector.xpath('/html/body/p/text()').getall()).toEqual(['y']);
  });

  it('writes an empty <li> without its end tag, as lxml does', () => {
    expect(new Selector({ text: '<ul><li></li><li>x</li></ul>' }).css('li').getall()).toEqual(['<li>', '<li>x</li>']);
  });

  it('ends an attribute name at a character libxml2 does not allow in names', () => {
    const a = new Selector({ text: '<a x#y="1" v/w z="a b">t</a>' }).css('a');
    expect(a.get()).toBe('<a x v z="a b">t</a>');
    expect(new Selector({ text: '<a x#y="a b" z=2>t</a>' }).css('a').get()).toBe('<a x b z="2">t</a>');
  });

  it('drops C0 control characters from text but keeps them in attribute values', () => {
    const p = new Selector({ text: '<p t="a\u0001b">c\u0001d&#27;e</p>' }).css('p');
    expect(p.css('::text').get()).toBe('cde');
    expect(p.attrib).toEqual({ t: 'a\u0001b' });
    expect(p.get()).toBe('<p t="ab">cde</p>');
  });
});
