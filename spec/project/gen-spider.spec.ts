import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractDomain, genSpider, sanitizeModuleName, templateList } from '../../src/project/gen-spider.js';
import { GenSpiderError } from '../../src/project/project-errors.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-genspider-unit-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sanitizeModuleName', () => {
  it("replaces dashes and dots, and starts with a letter (Scrapy's rule)", () => {
    expect(sanitizeModuleName('quotes-toscrape.com')).toBe('quotes_toscrape_com');
    expect(sanitizeModuleName('1st')).toBe('a1st');
    expect(sanitizeModuleName('_x')).toBe('a_x');
  });
});

describe('extractDomain', () => {
  it('reads a bare domain, a URL, and a domain with a port', () => {
    expect(extractDomain('example.com')).toBe('example.com');
    expect(extractDomain('https://example.com/page/1/')).toBe('example.com');
    expect(extractDomain('127.0.0.1:8000')).toBe('127.0.0.1:8000');
    expect(extractDomain('//example.com/x')).toBe('example.com');
  });
});

describe('templateList', () => {
  it("prints Scrapy's list", () => {
    expect(templateList()).toBe('Available templates:\n  basic\n  crawl\n  csvfeed\n  xmlfeed\n');
  });
});

describe('genSpider outside a project', () => {
  it('writes <module>.ts into the current folder from the basic template', () => {
    const { file, message } = genSpider({ name: 'quotes-site', domain: 'https://quotes.example/', template: 'basic', cwd: dir, project: null });
    expect(file).toBe(join(dir, 'quotes_site.ts'));
    expect(message).toBe("Created spider 'quotes-site' using template 'basic'\n");
    expect(readFileSync(file, 'utf8')).toBe(`import { Spider, type Response } from 'seine';

export class QuotesSiteSpider extends Spider {
  static name = 'quotes-site';
  allowedDomains = ['quotes.example'];
  startUrls = ['http://quotes.example/'];

  *parse(response: Response) {
    // yield items ({ ... }) and requests (response.follow(href, this.parse)) here
    void response;
  }
}
`);
  });

  it('uses CrawlSpider, Rule and LinkExtractor in the crawl template', () => {
    const text = readFileSync(genSpider({ name: 'links', domain: 'example.com', template: 'crawl', cwd: dir, project: null }).file, 'utf8');
    expect(text).toContain("import { CrawlSpider, LinkExtractor, Rule, type Response } from 'seine';");
    expect(text).toContain('export class LinksSpider extends CrawlSpider {');
    expect(text).toContain("rules = [new Rule(new LinkExtractor({ allow: /Items\\// }), { callback: 'parseItem', follow: true })];");
    expect(text).toContain('  parseItem(response: Response) {');
  });

  it('uses XMLFeedSpider in the xmlfeed template', () => {
    const text = readFileSync(genSpider({ name: 'feed', domain: 'example.com', template: 'xmlfeed', cwd: dir, project: null }).file, 'utf8');
    expect(text).toContain('export class FeedSpider extends XMLFeedSpider {');
    expect(text).toContain("startUrls = ['http://example.com/feed.xml'];");
    expect(text).toContain("  itertag = 'item'; // change it accordingly");
    expect(text).toContain('  parseNode(response: Response, selector: Selector) {');
  });

  it('uses CSVFeedSpider in the csvfeed template', () => {
    const text = readFileSync(genSpider({ name: 'table', domain: 'example.com', template: 'csvfeed', cwd: dir, project: null }).file, 'utf8');
    expect(text).toContain('export class TableSpider extends CSVFeedSpider {');
    expect(text).toContain("startUrls = ['http://example.com/feed.csv'];");
    expect(text).toContain('  parseRow(response: Response, row: Record<string, string>) {');
  });

  it('refuses an unknown template', () => {
    expect(() => genSpider({ name: 'x', domain: 'example.com', template: 'fancy', cwd: dir, project: null })).toThrow(
      new GenSpiderError('Unable to find template: fancy: use "seine genspider --list" to see all available templates'),
    );
  });

  it('refuses to overwrite a file', () => {
    expect(() => genSpider({ name: 'quotes-site', domain: 'example.com', template: 'basic', cwd: dir, project: null })).toThrow(
      new GenSpiderError(`${join(dir, 'quotes_site.ts')} already exists: choose another spider name`),
    );
  });
});
