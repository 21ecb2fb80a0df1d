/**
 * Hostile input ("Hostile input" issue): the parsers accept documents nested
 * 100,000 elements deep, so everything that walks a tree must do it without
 * recursion. These would throw `RangeError: Maximum call stack size
 * exceeded` from a recursive walk (Node's default stack holds ~10,000
 * frames).
 */
import { describe, expect, it } from '@jest/globals';
import { Selector } from '../../src/index.js';
import { serializeHtml } from '../../src/dom/serialize-html.js';
import { serializeXml } from '../../src/dom/serialize-xml.js';
import { parseHtml } from '../../src/dom/parse-html.js';
import { parseXml } from '../../src/dom/parse-xml.js';

const DEPTH = 100_000;
const nested = (n: number, inner = 'x'): string => '<div>'.repeat(n) + inner + '</div>'.repeat(n);

describe('documents nested 100,000 deep', () => {
  const html = new Selector({ text: nested(DEPTH) });

  it('get() serializes them (HTML)', () => {
    const out = html.get();
    expect(out.length).toBe('<html><body></body></html>'.length + DEPTH * '<div></div>'.length + 1);
    expect(out.startsWith('<html><body><div><div>')).toBe(true);
    expect(out.endsWith('</div></div></body></html>')).toBe(true);
  });

  it('get() serializes them (XML), namespaces resolved without walking the ancestors', () => {
    const text = '<r xmlns="urn:a" xmlns:p="urn:p">' + '<p:e>'.repeat(DEPTH) + 'x' + '</p:e>'.repeat(DEPTH) + '</r>';
    const xml = new Selector({ type: 'xml', text });
    const out = xml.get();
    expect(out.length).toBe(text.length);
    const deepest = xml.xpath('//*[not(*)]', {}, { namespaces: { p: 'urn:p' } });
    expect(deepest.length).toBe(1);
    expect(deepest.xpath('namespace-uri()').get()).toBe('urn:p');
    expect(xml.xpath('count(//p:e)', {}, { namespaces: { p: 'urn:p' } }).get()).toBe(String(DEPTH) + '.0');
  });

  it('serializes a deep sub-element, and a document node', () => {
    const doc = parseHtml(nested(20_000, '<script>a<b</script>'));
    expect(serializeHtml(doc).length).toBe(serializeHtml(doc.children[0]!).length);
    expect(serializeHtml(doc)).toContain('<script>a<b</script>');
    const xml = parseXml(nested(20_000, '<a>&amp;</a>'));
    expect(serializeXml(xml)).toContain('<a>&amp;</a>');
  });

  it('text extraction, string(), normalize-space() and ::text', () => {
    expect(html.xpath('string()').get()).toBe('x');
    expect(html.xpath('normalize-space(//body)').get()).toBe('x');
    expect(html.css('body ::text').getall()).toEqual(['x']);
    expect(html.xpath('//div[not(div)]/text()').get()).toBe('x');
  });

  it('axes: descendant, ancestor, following, preceding, and document order of unions', () => {
    expect(html.xpath('count(//div)').get()).toBe(`${DEPTH}.0`);
    expect(html.xpath('count(//text()/ancestor::*)').get()).toBe(`${DEPTH + 2}.0`);
    expect(html.css('div div').length).toBe(DEPTH - 1);
    expect(html.xpath('//body/following::node()').length).toBe(0);
    expect(html.xpath('//text()/preceding::node()').length).toBe(0);
    expect(html.xpath('count(//text() | //body | //div)').get()).toBe(`${DEPTH + 2}.0`);
  });

  it('removeNamespaces() and drop() walk them', () => {
    const sel = new Selector({ text: nested(DEPTH) });
    sel.removeNamespaces();
    sel.xpath('//body/div').drop();
    expect(sel.get()).toBe('<html><body></body></html>');
  });

  it('parses 100,000 open elements followed by 100,000 end tags that close none of them', () => {
    // Each stray end tag scanned every open element: quadratic, minutes at this size.
    const sel = new Selector({ text: '<span>'.repeat(DEPTH) + '</div>'.repeat(DEPTH) + '<i>x</i>' });
    expect(sel.xpath('count(//span)').get()).toBe(`${DEPTH}.0`);
    expect(sel.xpath('name(//i/..)').get()).toBe('span');
    const closing = new Selector({ text: '<div>' + '<b>'.repeat(DEPTH) + '</div>'.repeat(DEPTH) + '<p>y</p>' });
    expect(closing.xpath('name(//p/..)').get()).toBe('body');
  });

  it('parses XML with 100,000 open elements and 100,000 end tags that close none of them', () => {
    const xml = new Selector({ type: 'xml', text: '<r>' + '<a>'.repeat(DEPTH) + '</b>'.repeat(DEPTH) + '<c/></r>' });
    expect(xml.xpath('count(//a)').get()).toBe(`${DEPTH}.0`);
    expect(xml.xpath('name(//c/..)').get()).toBe('a');
  });
});
