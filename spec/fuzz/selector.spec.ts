/**
 * Properties of the Selector API (src/selector) on arbitrary markup: building
 * a Selector, css(), xpath(), get(), getall() and re() never throw anything
 * but a seine error; the text a query returns agrees with XPath's
 * string-value; and markup made by a small HTML generator gives back the
 * text, elements and attribute values it was made of.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Selector } from '../../src/selector/index.js';
import { anyString, configureFuzz, runs, seineOutcome, tokenSoup } from './fuzz-config.js';

configureFuzz({ numRuns: 200 });

const MARKUP_PIECES = [
  '<', '>', '</', '/>', '<div>', '</div>', '<p>', '</p>', '<a href="/x">', '</a>', '<br>', '<table>', '<tr>', '<td>', '</table>', '<script>',
  '</script>', '<style>', '<!--', '-->', '<![CDATA[', ']]>', '<!DOCTYPE html>', '<?xml version="1.0"?>', '<html>', '<body>', '<head>',
  '<title>', '<svg>', '<math>', '<template>', '<select><option>', '&amp;', '&lt;', '&#0;', '&#x110000;', '&nbsp', '&', ' class="c"',
  " id='i'", '=', '"', "'", 'text', ' ', '\n', '\u0000', 'é', '\ud800', '😀', '<ns:x xmlns:ns="urn:n">', '</ns:x>',
];
const markup = fc.oneof(anyString(100), tokenSoup(MARKUP_PIECES, 25), tokenSoup(MARKUP_PIECES, 25));

const CSS_QUERIES = ['*', 'div', 'p::text', '*::text', '::text', 'a::attr(href)', '[class]', '.c', '#i', 'td:nth-child(2n)', 'div > p', 'title::text', 'body *:not(p)'];
const XPATH_QUERIES = ['//*', '//text()', '//@*', '/html/body//text()', 'string(.)', 'count(//*)', '//comment()', '//processing-instruction()', 'name(/*)',
  "normalize-space(//body)", '//*[@id]/@id', '..', '/', 'boolean(//a)', "//*[re:test(., '\\w')]"];
const REGEXES = ['\\w+', '(\\w)(\\d)?', '(?P<extract>[a-z]+)', '&\\w+;', '.', '^', '\\s*', /[<>]/];

describe('the Selector API on any markup', () => {
  it('builds a Selector from any text, and css/xpath/get/getall/re/attrib throw nothing but seine errors', () => {
    fc.assert(
      fc.property(markup, fc.constantFrom('html' as const, 'xml' as const), fc.oneof(fc.constantFrom(...CSS_QUERIES), anyString(20)),
        fc.oneof(fc.constantFrom(...XPATH_QUERIES), anyString(20)), fc.constantFrom(...REGEXES), (text, type, css, xpath, regex) => {
          const sel = new Selector({ text, type });
          for (const list of [seineOutcome(() => sel.css(css)), seineOutcome(() => sel.xpath(xpath))]) {
            if (!list.ok) continue;
            for (const value of list.value.getall()) expect(typeof value).toBe('string');
            const first = list.value.get();
            expect(first).toBe(list.value.getall()[0] ?? null);
            expect(list.value.get('default')).toBe(list.value.getall()[0] ?? 'default');
            const matches = list.value.re(regex);
            expect(matches).toEqual(list.value.flatMap((one) => one.re(regex)));
            expect(list.value.reFirst(regex)).toBe(matches[0] ?? null);
            for (const one of list.value) expect(typeof one.attrib).toBe('object');
            // Queries on what a query returned (elements, text, attributes, numbers) also hold.
            const nested = seineOutcome(() => list.value.css('*::text').getall());
            if (nested.ok) for (const value of nested.value) expect(typeof value).toBe('string');
          }
        }),
      { numRuns: runs(400) },
    );
  });

  it("the '::text' nodes of every element, joined, are its string(.), and so are its .//text() nodes", () => {
    fc.assert(
      fc.property(markup, (text) => {
        const sel = new Selector({ text });
        for (const element of sel.xpath('descendant-or-self::*')) {
          const value = element.xpath('string(.)').get();
          expect(element.css('::text').getall().join('')).toBe(value);
          expect(element.xpath('descendant::text()').getall().join('')).toBe(value);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('count(//*) is the number of elements //* selects, written as a Python float', () => {
    fc.assert(
      fc.property(markup, fc.constantFrom('html' as const, 'xml' as const), (text, type) => {
        const sel = new Selector({ text, type });
        expect(sel.xpath('count(//*)').get()).toBe(`${sel.xpath('//*').length}.0`);
        expect(sel.css('*').length).toBe(sel.xpath('descendant-or-self::*').length);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('the Selector API given values of any type', () => {
  it('returns, or throws a seine error (BadArgumentError for a wrong type), for css, xpath, re, reFirst, get and new Selector', () => {
    const sel = new Selector({ text: '<html><body><p class="c">a 1</p><p>b</p></body></html>' });
    const list = sel.css('p');
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true, withBigInt: true }), (value) => {
        const calls: Array<() => unknown> = [
          () => sel.css(value as string),
          () => sel.xpath(value as string),
          () => sel.xpath('//p', value as Record<string, string>),
          () => sel.xpath('//p', undefined, value as { namespaces?: Record<string, string> }),
          () => list.css(value as string),
          () => list.get(value as string),
          () => new Selector({ text: value as string }),
          () => new Selector({ text: '<p>x</p>', type: value as 'html' }),
        ];
        if (typeof value !== 'string') calls.push(() => list.re(value as string), () => list.reFirst(value as string));
        for (const call of calls) seineOutcome(call);
      }),
      { numRuns: runs(300) },
    );
  });

  // A bug this property found, now fixed (src/selector/extract-regex.ts): a pattern string was handed to RegExp as it is, so
  // Python's inline flags fail (re('(?i)foo') throws SyntaxError: Invalid group; parsel gives ['Foo']) and an
  // invalid pattern is a SyntaxError, not a seine error (re('(') — parsel raises re.error there). Turns green
  // when re() translates or rejects Python patterns with a seine error.
  it('re() with any pattern string returns, or throws a seine error', () => {
    const list = new Selector({ text: '<p>Foo bar</p>' }).css('p::text');
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 8 }), tokenSoup(['(', ')', '(?i)', '(?P<extract>', '[', ']', '\\', '\\w', '+', '*', '?', '{2,1}', 'a', '|'], 6)), (pattern) => {
        seineOutcome(() => list.re(pattern));
      }),
      { numRuns: runs(300), examples: [['(?i)foo'], ['(']] },
    );
  });
});

// A small HTML generator: elements that nest freely in HTML (no implied end tags), attributes, text with
// characters that must be escaped. Every text node has a non-blank character: lxml drops some blank ones.
interface Tree {
  tag: string;
  attr: string | null;
  children: Array<Tree | string>;
}
const TAGS = ['div', 'span', 'b', 'i', 'em', 'section', 'article'];
const textChars = fc.constantFrom(...'abcxyz019 &<>"\'é€😀\u00a0\t\n=/;#'.split(/(?:)/u));
const textNode = fc.string({ unit: textChars, minLength: 1, maxLength: 12 }).filter((t) => /[^ \t\n]/.test(t));
const { tree } = fc.letrec<{ tree: Tree; node: Tree | string }>((tie) => ({
  tree: fc.record({
    tag: fc.constantFrom(...TAGS),
    attr: fc.option(fc.string({ unit: textChars, maxLength: 8 }), { nil: null }),
    children: fc.array(tie('node'), { maxLength: 4 }),
  }),
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, textNode, tie('tree')),
}));

const escapeText = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const escapeAttr = (text: string): string => escapeText(text).replaceAll('"', '&quot;');

function render(node: Tree | string): string {
  if (typeof node === 'string') return escapeText(node);
  const attr = node.attr === null ? '' : ` data-v="${escapeAttr(node.attr)}"`;
  return `<${node.tag}${attr}>${node.children.map(render).join('')}</${node.tag}>`;
}

function collect(node: Tree | string, out: { text: string; tags: string[]; attrs: string[] }): typeof out {
  if (typeof node === 'string') {
    out.text += node;
  } else {
    out.tags.push(node.tag);
    if (node.attr !== null) out.attrs.push(node.attr);
    for (const child of node.children) collect(child, out);
  }
  return out;
}

const page = (trees: Tree[]): string => `<html><body>${trees.map(render).join('')}</body></html>`;

describe('markup from the HTML generator', () => {
  it('gives back its text, its elements in document order and its attribute values', () => {
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 3 }), (trees) => {
        const want = { text: '', tags: [] as string[], attrs: [] as string[] };
        for (const t of trees) collect(t, want);
        const sel = new Selector({ text: page(trees) });
        expect(sel.xpath('string(//body)').get()).toBe(want.text);
        expect(sel.css('body::text, body *::text').getall().join('')).toBe(want.text);
        expect(sel.xpath('//body//*').getall().length).toBe(want.tags.length);
        expect(sel.xpath('//body//*').xpath('name()').getall()).toEqual(want.tags);
        expect(sel.css('[data-v]::attr(data-v)').getall()).toEqual(want.attrs);
      }),
      { numRuns: runs(300) },
    );
  });

  it('serializes to markup that parses back to the same markup', () => {
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 3 }), (trees) => {
        const once = new Selector({ text: page(trees) }).get();
        expect(new Selector({ text: once }).get()).toBe(once);
      }),
      { numRuns: runs(300) },
    );
  });
});

// Found by comparing the tree of markup from MARKUP_PIECES with parsel 1.7.0 (lxml 4.9.2, libxml2 2.9.14,
// /usr/bin/python3), the parser seine follows (docs/selectors.md); the expected values are parsel's get().
// BUGS in src/dom/parse-html.ts (another engineer's), pinned to turn green when fixed:
describe('broken markup parses as parsel 1.7 parses it', () => {
  // libxml2 makes no element of a lone '<', and parsel then parses '<html/>'; seine gives <body><p>&lt;</p></body>.
  it.failing("'<' alone is an empty <html>", () => {
    expect(new Selector({ text: '<' }).get()).toBe('<html></html>');
  });

  // libxml2 2.9.14 skips a '</' that no tag name follows and reads on ('<b' is a start tag); seine makes
  // '</<b' a bogus comment (<!--<b-->), as HTML5 does. 'a</<' likewise: parsel a&lt;, seine a<!--<-->.
  it.failing("'a</<b' is a <p> holding a and an empty <b>", () => {
    expect(new Selector({ text: 'a</<b' }).get()).toBe('<html><body><p>a<b></b></p></body></html>');
  });
});
