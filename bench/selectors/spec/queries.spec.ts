import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeQuery, listingFieldLabel, loadQueries } from '../queries.js';

function withQueries(content: unknown, check: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'seine-bench-spec-'));
  const path = join(dir, 'queries.json');
  writeFileSync(path, JSON.stringify(content));
  try {
    check(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const listing = {
  entries: { css: 'div.entry', xpath: 'x' },
  fields: [{ name: 'title', css: 'h2 a::text', take: 'get', xpath: 'y' }],
  links: { css: 'a::attr(href)', take: 'getall', xpath: 'z' },
};

describe('loadQueries', () => {
  it('loads the committed queries.json: ~20 queries per saved page and the listing extraction', () => {
    const queries = loadQueries();
    expect(Object.keys(queries.saved)).toEqual(['page-10k.html', 'page-100k.html']);
    expect(queries.saved['page-10k.html']!.length).toBe(22);
    expect(queries.saved['page-100k.html']!.length).toBe(24);
    expect(queries.listing.fields.map((f) => `${f.name} ${f.css} ${f.take}`)).toEqual([
      'title h2 a::text get',
      'url h2 a::attr(href) get',
      'price .price::text get',
      'tags .tags a::text getall',
    ]);
  });

  it('names the entry that has both css and xpath', () => {
    withQueries({ saved: { 'p.html': [{ css: 'a', xpath: '//a' }] }, listing }, (path) => {
      expect(() => loadQueries(path)).toThrow(
        `${path}: "saved"."p.html"[0] is {"css":"a","xpath":"//a"}: it needs exactly one of "css" or "xpath", a non-empty string; fix the entry (see docs/performance.md for the format)`,
      );
    });
  });

  it('names a listing field whose take is neither get nor getall', () => {
    const bad = { ...listing, fields: [{ name: 'title', css: 'h2', take: 'first' }] };
    withQueries({ saved: {}, listing: bad }, (path) => {
      expect(() => loadQueries(path)).toThrow(
        `${path}: "listing"."fields"[0] is {"name":"title","css":"h2","take":"first"}: it needs "name", "css" and "take" ("get" or "getall"); fix the entry (see docs/performance.md for the format)`,
      );
    });
  });
});

describe('labels', () => {
  it('are the ones parsel_bench.py prints, so the two sides line up', () => {
    expect(describeQuery({ css: 'a::attr(href)' })).toBe('css:a::attr(href)');
    expect(describeQuery({ xpath: '//a/@href' })).toBe('xpath://a/@href');
    expect(listingFieldLabel(3, { name: 'price', css: '.price::text', take: 'get', xpath: '' })).toBe(
      'entry 3 price (css:.price::text .get())',
    );
  });
});
