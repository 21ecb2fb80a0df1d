import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { IndexError, Selector, SelectorList, isSelector } from '../../src/index.js';

const html = '<html><head><title>Quotes</title></head><body><a href="/1">one</a><a href="/2">two</a></body></html>';

describe('Selector in a Node console', () => {
  it('prints as parsel repr with query= and data shortened to 40 characters', () => {
    const sel = new Selector({ text: html });
    expect(inspect(sel.css('title')[0])).toBe("<Selector query='descendant-or-self::title' data='<title>Quotes</title>'>");
    expect(inspect(sel.xpath('//body')[0])).toBe(`<Selector query='//body' data='<body><a href="/1">one</a><a href="/2...'>`);
  });

  it('prints a SelectorList as a bracketed list of reprs', () => {
    const sel = new Selector({ text: html });
    expect(inspect(sel.css('a::text'))).toBe(
      "[<Selector query='descendant-or-self::a/text()' data='one'>, <Selector query='descendant-or-self::a/text()' data='two'>]",
    );
    expect(inspect(sel.css('p'))).toBe('[]');
  });

  it('prints query=None for the selector made from text', () => {
    expect(String(new Selector({ text: '<p>x</p>' }))).toBe("<Selector query=None data='<html><body><p>x</p></body></html>'>");
  });
});

describe('SelectorList indexing', () => {
  it('throws IndexError: list index out of range past the end', () => {
    const links = new Selector({ text: html }).css('a');
    expect(() => links[2]).toThrow(IndexError);
    expect(() => new Selector({ text: html }).css('p')[0]).toThrow('list index out of range');
    let message = '';
    try {
      void links[5];
    } catch (error) {
      message = String(error);
    }
    expect(message).toBe('IndexError: list index out of range');
  });

  it('counts negative indexes from the end, as Python does', () => {
    const links = new Selector({ text: html }).css('a::attr(href)');
    expect(links[-1]!.get()).toBe('/2');
    expect(links[-2]!.get()).toBe('/1');
    expect(() => links[-3]).toThrow(IndexError);
  });

  it('keeps SelectorList methods on slices and filters', () => {
    const links = new Selector({ text: html }).css('a');
    expect(links.slice(1)).toBeInstanceOf(SelectorList);
    expect(links.slice(1).css('::text').getall()).toEqual(['two']);
    expect(links.filter((a) => a.attrib['href'] === '/1').css('::text').get()).toBe('one');
  });
});

describe('Selector namespaces', () => {
  it('registers a prefix on one selector without changing the selectors it came from', () => {
    const feed = new Selector({ type: 'xml', text: '<feed xmlns="urn:a"><entry><t>A</t></entry></feed>' });
    const entry = feed.xpath('//*[local-name()="entry"]')[0]!;
    entry.registerNamespace('a', 'urn:a');
    expect(entry.xpath('a:t/text()').get()).toBe('A');
    expect(() => feed.xpath('//a:t')).toThrow(/Undefined namespace prefix|undefined namespace prefix/i);
  });
});

describe('Selector construction', () => {
  it('is recognised by its brand', () => {
    expect(isSelector(new Selector({ text: '<p/>' }))).toBe(true);
    expect(isSelector({ css: () => [] })).toBe(false);
  });

  it('refuses an unknown type with a message naming it', () => {
    expect(() => new Selector({ text: '<p/>', type: 'json' as 'html' })).toThrow(`new Selector() needs type as 'html' or 'xml', got a string ("json")`);
  });

  it('refuses to be made from nothing with a message saying what it needs', () => {
    expect(() => new Selector({})).toThrow(
      "new Selector() needs text (markup to parse) or root (a parsed node) as an option, as in new Selector({ text: '<html>…' }), got neither",
    );
  });

  it('leaves the document node out of results, as parsel does', () => {
    const sel = new Selector({ text: '<p>x</p>' });
    expect(sel.xpath('/').getall()).toEqual([]);
    expect(sel.xpath('..').getall()).toEqual([]);
  });

  it('drops a node from its document', () => {
    const sel = new Selector({ text: '<ul><li>a</li><li class="ad">b</li><li>c</li></ul>' });
    sel.css('li.ad').drop();
    expect(sel.css('li::text').getall()).toEqual(['a', 'c']);
  });
});
