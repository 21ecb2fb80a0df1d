import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Request, Sitemap, sitemapUrlsFromRobots } from '../../src/index.js';

interface SitemapCase {
  name: string;
  body?: string;
  bodyBase64?: string;
  type?: string;
  entries?: Array<Record<string, string | string[]>>;
  error?: string;
}
interface RobotsCase {
  name: string;
  text: string;
  base: string;
  urls: string[];
}

// Recorded from Scrapy 2.8 by scripts/record-sitemap-fixtures.py.
const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('fixtures/sitemaps.json', import.meta.url)), 'utf8')) as {
  sitemaps: SitemapCase[];
  robots: RobotsCase[];
};

function bodyOf(c: SitemapCase): Buffer {
  return c.bodyBase64 !== undefined ? Buffer.from(c.bodyBase64, 'base64') : Buffer.from(c.body!, 'utf8');
}

const parsed = fixture.sitemaps.filter((c) => c.error === undefined);
const failing = fixture.sitemaps.filter((c) => c.error !== undefined);

describe('Sitemap', () => {
  it.each(parsed.map((c) => [c.name, c] as const))('reads "%s" as Scrapy 2.8 does', (_name, c) => {
    const sitemap = new Sitemap(bodyOf(c));
    expect({ type: sitemap.type, entries: [...sitemap] }).toEqual({ type: c.type, entries: c.entries });
  });

  it('recorded bodies without any element, on which Scrapy raises', () => {
    expect(failing.map((c) => [c.name, c.error])).toEqual([
      ['plain text sitemap', "AttributeError: 'NoneType' object has no attribute 'tag'"],
      ['empty body', 'XMLSyntaxError: Document is empty, line 1, column 1 (<string>, line 1)'],
    ]);
  });

  it.each(failing.map((c) => [c.name, c] as const))('gives type null and no entries for "%s" (Scrapy raises there)', (_name, c) => {
    const sitemap = new Sitemap(bodyOf(c));
    expect({ type: sitemap.type, entries: [...sitemap] }).toEqual({ type: null, entries: [] });
  });

  it('keeps an empty <html/> root, which is a document, apart from no root at all', () => {
    expect(new Sitemap('<html/>').type).toBe('html');
    expect(new Sitemap('no markup here').type).toBeNull();
  });

  it('skips a processing instruction among the fields (Scrapy 2.8 fails on it)', () => {
    expect([...new Sitemap('<urlset><url><loc>http://a.example/</loc><?pi x?><lastmod>2020</lastmod></url></urlset>')]).toEqual([
      { loc: 'http://a.example/', lastmod: '2020' },
    ]);
  });

  it('parses a text body the same as its UTF-8 bytes', () => {
    const text = '<urlset><url><loc>http://a.example/é</loc></url></urlset>';
    expect([...new Sitemap(text)]).toEqual([...new Sitemap(Buffer.from(text))]);
  });
});

describe('sitemapUrlsFromRobots', () => {
  // Python's urljoin keeps a space that the URL standard escapes; both become the same request URL.
  it.each(fixture.robots.map((c) => [c.name, c] as const))('finds the Sitemap URLs of "%s" as Scrapy 2.8 does', (_name, c) => {
    const urls = [...sitemapUrlsFromRobots(c.text, c.base)];
    expect(urls.map((url) => new Request(url).url)).toEqual(c.urls.map((url) => new Request(url).url));
  });
});
