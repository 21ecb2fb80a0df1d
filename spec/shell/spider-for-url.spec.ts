import { describe, expect, it } from '@jest/globals';
import type { FoundSpider } from '../../src/project/spider-loader.js';
import { DefaultSpider } from '../../src/shell/default-spider.js';
import { spiderClassForUrl } from '../../src/shell/spider-for-url.js';
import { Spider, spiderName, type SpiderClass } from '../../src/contracts/spider.js';

class QuotesSpider extends Spider {
  static override name = 'quotes';
  override allowedDomains = ['quotes.example'];
}
class BooksSpider extends Spider {
  static override name = 'books';
  override allowedDomains = ['books.example', 'shared.example'];
}
class AuthorsSpider extends Spider {
  static override name = 'authors';
  override allowedDomains = ['shared.example'];
}
class NamedSpider extends Spider {
  static override name = 'named.example';
}
class NeedsArgsSpider extends Spider {
  static override name = 'needs-args';
  constructor(args: Record<string, unknown> = {}) {
    super(args);
    if (args['tag'] === undefined) throw new Error('tag is required');
  }
}

/** A project's spiders as the loader lists them (the loader itself imports files, which Jest cannot). */
const loader = {
  spiders: new Map<string, FoundSpider>(
    ([QuotesSpider, BooksSpider, AuthorsSpider, NamedSpider, NeedsArgsSpider] as SpiderClass[]).map((cls) => [spiderName(cls)!, { name: spiderName(cls)!, spiderClass: cls, file: 'x.ts' }]),
  ),
  list(): string[] {
    return [...this.spiders.keys()].sort();
  },
  find(name: string): FoundSpider | undefined {
    return this.spiders.get(name);
  },
};

const nameFor = (url: string): string | null => spiderName(spiderClassForUrl(loader, url));

describe('spiderClassForUrl (Scrapy spidercls_for_request)', () => {
  it("picks the one spider whose allowedDomains cover the URL's host, subdomains included", () => {
    expect(nameFor('http://quotes.example/page/1/')).toBe('quotes');
    expect(nameFor('https://www.books.example/')).toBe('books');
  });

  it('reads a spider without allowedDomains by its name', () => {
    expect(nameFor('http://named.example/')).toBe('named.example');
  });

  it('uses the default spider when none, or more than one, matches', () => {
    expect(spiderClassForUrl(loader, 'http://other.example/')).toBe(DefaultSpider);
    expect(spiderClassForUrl(loader, 'http://shared.example/')).toBe(DefaultSpider);
    expect(spiderClassForUrl(null, 'http://quotes.example/')).toBe(DefaultSpider);
    expect(spiderClassForUrl(loader, 'file:///tmp/x.html')).toBe(DefaultSpider);
  });
});
