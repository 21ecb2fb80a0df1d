import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Response } from '../../src/http/response.js';
import { IGNORED_EXTENSIONS, Link, LinkExtractor, LinkExtractorError, type LinkExtractorOptions } from '../../src/link-extractor/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/link-extractor/', import.meta.url));

interface Case {
  name: string;
  page: string;
  url: string;
  encoding?: string;
  options: Record<string, unknown>;
}
type Expected = Record<string, Array<{ url: string; text: string; fragment: string; nofollow: boolean }>>;

const cases = JSON.parse(readFileSync(`${FIXTURES}cases.json`, 'utf8')) as Case[];
const expected = JSON.parse(readFileSync(`${FIXTURES}expected.json`, 'utf8')) as Expected;

// The same function scripts/record-link-extractor-fixtures.py gives Scrapy.
const PROCESSORS: Record<string, (value: string) => string> = {
  'javascript-target': (value) => /goToPage\('([^']+)'\)/.exec(value)?.[1] ?? value,
};

function pageResponse(page: string, url: string, encoding?: string): Response {
  return new Response({ url, body: readFileSync(`${FIXTURES}pages/${page}`), headers: { 'Content-Type': 'text/html' }, encoding: encoding ?? null });
}

function plain(links: Link[]) {
  return links.map((l) => ({ url: l.url, text: l.text, fragment: l.fragment, nofollow: l.nofollow }));
}

describe('LinkExtractor against Scrapy 2.8 (spec/fixtures/link-extractor, scripts/record-link-extractor-fixtures.py)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const options = { ...c.options } as LinkExtractorOptions & { processValue?: unknown };
    if (typeof options.processValue === 'string') options.processValue = PROCESSORS[options.processValue];
    const links = new LinkExtractor(options as LinkExtractorOptions).extractLinks(pageResponse(c.page, c.url, c.encoding));
    expect(plain(links)).toEqual(expected[c.name]);
  });
});

function html(body: string, url = 'http://example.com/dir/page.html'): Response {
  return new Response({ url, body: `<html><body>${body}</body></html>`, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

describe('LinkExtractor', () => {
  it('takes RegExp objects, also global ones, and tests every link with each', () => {
    const le = new LinkExtractor({ allow: /item/g });
    const links = le.extractLinks(html('<a href="/item/1">1</a><a href="/item/2">2</a><a href="/other">x</a>'));
    expect(links.map((l) => l.url)).toEqual(['http://example.com/item/1', 'http://example.com/item/2']);
  });

  it('accepts a single string where Scrapy accepts one value or a list', () => {
    const le = new LinkExtractor({ allow: 'a', tags: 'link', attrs: 'href', denyExtensions: 'css' });
    expect(le.tags).toEqual(new Set(['link']));
    expect(le.denyExtensions).toEqual(new Set(['.css']));
    expect(le.allowRes.map((r) => r.source)).toEqual(['a']);
  });

  it('drops a link whose processValue returns null or undefined', () => {
    const le = new LinkExtractor({ processValue: (v) => (v.endsWith('/keep') ? v : null) });
    expect(le.extractLinks(html('<a href="/keep">k</a><a href="/drop">d</a>')).map((l) => l.url)).toEqual(['http://example.com/keep']);
  });

  it('skips a link with a port Python would refuse instead of failing the page', () => {
    const links = new LinkExtractor().extractLinks(html('<a href="http://example.com:99999/">bad</a><a href="/ok">ok</a>'));
    expect(links.map((l) => l.url)).toEqual(['http://example.com/ok']);
  });

  it('matches hosts with a port against a bare allowDomains entry', () => {
    const links = new LinkExtractor({ allowDomains: ['127.0.0.1'] }).extractLinks(html('<a href="/a">a</a><a href="http://localhost:8080/b">b</a>', 'http://127.0.0.1:8080/'));
    expect(links.map((l) => l.url)).toEqual(['http://127.0.0.1:8080/a']);
  });

  it('refuses a restriction that selects attributes, saying what to change', () => {
    const le = new LinkExtractor({ restrictXpaths: '//a/@href' });
    expect(() => le.extractLinks(html('<a href="/x">x</a>'))).toThrow(
      new LinkExtractorError(
        "LinkExtractor restriction '//a/@href' selected an attribute on http://example.com/dir/page.html: restrictXpaths and restrictCss must select elements (drop '/@attr', '/text()', '::attr()' or '::text' from the query)",
      ),
    );
    expect(LinkExtractorError.code).toBe('SEINE_LINK_EXTRACTOR');
  });

  it('matches() checks domains and allow/deny, not extensions', () => {
    const le = new LinkExtractor({ allow: 'shop', deny: 'private', allowDomains: 'example.com' });
    expect(le.matches('http://example.com/shop/x.pdf')).toBe(true);
    expect(le.matches('http://example.com/shop/private')).toBe(false);
    expect(le.matches('http://example.org/shop/')).toBe(false);
    expect(le.matches('http://example.com/blog/')).toBe(false);
  });

  it("has Scrapy's IGNORED_EXTENSIONS", () => {
    expect(IGNORED_EXTENSIONS.length).toBe(70);
    expect(IGNORED_EXTENSIONS.slice(0, 3)).toEqual(['7z', '7zip', 'bz2']);
    expect(IGNORED_EXTENSIONS.at(-1)).toBe('apk');
  });
});

describe('Link', () => {
  it("prints as Scrapy's repr and compares by value", () => {
    const link = new Link('http://example.com/', "it's", '', true);
    expect(String(link)).toBe(`Link(url='http://example.com/', text="it's", fragment='', nofollow=True)`);
    expect(link.equals(new Link('http://example.com/', "it's", '', true))).toBe(true);
    expect(link.equals(new Link('http://example.com/', "it's"))).toBe(false);
  });
});
