import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseHtml } from '../../src/dom/parse-html.js';
import { serializeHtml } from '../../src/dom/serialize-html.js';
import { ELEMENT, TEXT } from '../../src/dom/node.js';

// Recorded from lxml/parsel by scripts/record-html-trees.py.
const recorded: Array<{ input: string; serialized: string[] }> = JSON.parse(
  readFileSync(new URL('../fixtures/dom/html-trees.json', import.meta.url), 'utf8'),
);

describe('parseHtml repairs markup as lxml does', () => {
  for (const { input, serialized } of recorded) {
    it(`builds ${JSON.stringify(input).slice(0, 70)}`, () => {
      const doc = parseHtml(input);
      expect(doc.children.map((n) => serializeHtml(n))).toEqual(serialized);
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
