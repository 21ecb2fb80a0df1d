import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { Request, Response, SitemapSpider, createSpider, type SitemapEntry, type SitemapRule } from '../../src/index.js';
import { SpiderDefinitionError } from '../../src/contracts/spider-errors.js';
import { callbackOutputs } from '../../src/contracts/callback-output.js';
import { runCrawl, startSite, type Route, type TestSite } from '../helpers/site-server.js';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"';

function urlset(entries: Array<{ loc: string; lastmod?: string; alternates?: string[] }>): string {
  const urls = entries.map(({ loc, lastmod, alternates = [] }) =>
    `<url><loc>${loc}</loc>${lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`}` +
    alternates.map((href) => `<xhtml:link rel="alternate" hreflang="x" href="${href}"/>`).join('') + '</url>');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>${urls.join('\n')}</urlset>`;
}

function sitemapIndex(locs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${NS}>${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;
}

function send(type: string, body: string | Buffer, headers: Record<string, string> = {}): Route {
  return (_req, res) => void res.writeHead(200, { 'Content-Type': type, ...headers }).end(body);
}

function page(title: string): Route {
  return send('text/html; charset=utf-8', `<html><head><title>${title}</title></head><body></body></html>`);
}

let site: TestSite;
let u: (path: string) => string;

beforeAll(async () => {
  const routes: Record<string, Route> = {};
  site = await startSite(routes);
  u = (path) => site.url(path);
  Object.assign(routes, {
    '/robots.txt': send('text/plain', `User-agent: *\nDisallow: /private/\nSitemap: /sitemap-index.xml\nsitemap: ${u('/news.xml')}\n`),
    '/sitemap-index.xml': send('application/xml', sitemapIndex([u('/products.xml.gz'), u('/pages.xml'), u('/archive/old.xml')])),
    // A gzipped file served as bytes, as many servers send .xml.gz.
    '/products.xml.gz': send('application/octet-stream', gzipSync(urlset([
      { loc: u('/product/1'), lastmod: '2024-03-01' },
      { loc: u('/product/2'), lastmod: '2019-12-31' },
    ]))),
    '/pages.xml': send('text/xml', urlset([{ loc: u('/about'), lastmod: '2024-05-05', alternates: [u('/de/about'), u('/fr/about')] }])),
    '/archive/old.xml': send('text/xml', urlset([{ loc: u('/old') }])),
    '/news.xml': send('application/xml', urlset([{ loc: u('/news/today') }])),
    // Gzip on the wire only (Content-Encoding): the downloader undoes it, the URL says XML.
    '/encoded.xml': send('application/octet-stream', gzipSync(urlset([{ loc: u('/encoded-page') }])), { 'Content-Encoding': 'gzip' }),
    '/typed.xml.gz': send('application/x-gzip', gzipSync(urlset([{ loc: u('/typed-page') }]))),
    // 30 bytes on the wire, ~2 MB once decompressed: a small gzip bomb.
    '/bomb.xml.gz': send('application/octet-stream', gzipSync(Buffer.concat([Buffer.from(urlset([{ loc: u('/bomb-page') }])), Buffer.alloc(2_000_000, 32)]))),
    '/sitemap.txt': send('text/plain', `${u('/product/1')}\n${u('/about')}\n`),
    '/flawed.xml': send('text/xml', urlset([{ loc: u('/product/1') }, { loc: 'http://exa mple.com/x' }, { loc: '/relative' }, { loc: u('/about') }])),
    '/not-a-sitemap': page('just a page'),
    ...Object.fromEntries(['/bomb-page', '/product/1', '/product/2', '/about', '/de/about', '/fr/about', '/old', '/news/today', '/encoded-page', '/typed-page']
      .map((path) => [path, page(`title of ${path}`)])),
  });
});
afterAll(async () => site.close());
beforeEach(() => site.reset());

class ShopSitemapSpider extends SitemapSpider {
  static override name = 'shop-sitemap';
  override sitemapRules: readonly SitemapRule[] = [['/product/', 'parseProduct'], ['', 'parse']];
  override sitemapFollow = ['products', /pages/];

  override *parse(response: Response) {
    yield { page: new URL(response.url).pathname, callback: 'parse' };
  }

  *parseProduct(response: Response) {
    yield { page: new URL(response.url).pathname, callback: 'parseProduct' };
  }
}

function byPage(items: Array<Record<string, unknown>>) {
  return [...items].sort((a, b) => String(a['page']).localeCompare(String(b['page'])));
}

describe('SitemapSpider in a crawl', () => {
  it('goes from robots.txt through a sitemap index and a gzipped sitemap to pages, routing them by the first matching rule', async () => {
    class Shop extends ShopSitemapSpider {
      static override name = 'shop-robots';
      override sitemapUrls = [u('/robots.txt')];
    }
    const result = await runCrawl(Shop);
    expect(byPage(result.items)).toEqual([
      { page: '/about', callback: 'parse' },
      { page: '/news/today', callback: 'parse' },
      { page: '/product/1', callback: 'parseProduct' },
      { page: '/product/2', callback: 'parseProduct' },
    ]);
    // sitemapFollow matched neither /archive/old.xml nor, by default, the alternates.
    expect(site.hits).not.toContain('/archive/old.xml');
    expect(site.hits).not.toContain('/de/about');
    expect(result.reason).toBe('finished');
  });

  it('follows every sitemap of an index by default', async () => {
    class All extends ShopSitemapSpider {
      static override name = 'shop-all';
      override sitemapUrls = [u('/sitemap-index.xml')];
      override sitemapFollow = [''];
    }
    const result = await runCrawl(All);
    expect(site.hits).toContain('/archive/old.xml');
    expect(result.items).toContainEqual({ page: '/old', callback: 'parse' });
  });

  it('requests the xhtml:link alternates too when sitemapAlternateLinks is on', async () => {
    class Alternates extends ShopSitemapSpider {
      static override name = 'shop-alternates';
      override sitemapUrls = [u('/pages.xml')];
      override sitemapAlternateLinks = true;
    }
    const result = await runCrawl(Alternates);
    expect(byPage(result.items).map((item) => item['page'])).toEqual(['/about', '/de/about', '/fr/about']);
  });

  it('requests only the entries sitemapFilter lets through, here by lastmod', async () => {
    class Recent extends ShopSitemapSpider {
      static override name = 'shop-recent';
      override sitemapUrls = [u('/sitemap-index.xml')];
      override *sitemapFilter(entries: Iterable<SitemapEntry>) {
        // Index entries have no lastmod here: they pass; urlset entries must be from 2024 on.
        for (const entry of entries) if (entry.lastmod === undefined || entry.lastmod >= '2024') yield entry;
      }
    }
    const result = await runCrawl(Recent);
    expect(byPage(result.items)).toEqual([
      { page: '/about', callback: 'parse' },
      { page: '/product/1', callback: 'parseProduct' },
    ]);
    expect(site.hits).not.toContain('/product/2');
  });

  it('reads a sitemap gzipped on the wire at a .xml URL, and a .xml.gz file served as application/x-gzip', async () => {
    class Compressed extends ShopSitemapSpider {
      static override name = 'shop-compressed';
      override sitemapUrls = [u('/encoded.xml'), u('/typed.xml.gz')];
    }
    const result = await runCrawl(Compressed);
    expect(byPage(result.items).map((item) => item['page'])).toEqual(['/encoded-page', '/typed-page']);
  });

  it('warns "Ignoring invalid sitemap" for an HTML page and for a plain-text sitemap, which Scrapy 2.8 does not read either', async () => {
    class Invalid extends ShopSitemapSpider {
      static override name = 'shop-invalid';
      override sitemapUrls = [u('/not-a-sitemap'), u('/sitemap.txt')];
    }
    const result = await runCrawl(Invalid);
    const warnings = result.logs.filter((l) => l.logger === 'seine.spiders.sitemap').map((l) => `${l.level}: ${l.message}`);
    expect(warnings.sort()).toEqual([
      `WARNING: Ignoring invalid sitemap: <200 ${u('/not-a-sitemap')}>`,
      `WARNING: Ignoring invalid sitemap: <200 ${u('/sitemap.txt')}>`,
    ]);
    expect(result.items).toEqual([]);
    expect(site.hits.filter((path) => path !== '/robots.txt').sort()).toEqual(['/not-a-sitemap', '/sitemap.txt']);
  });

  it('drops a gzipped sitemap that decompresses past DOWNLOAD_MAXSIZE, with a warning (Scrapy 2.11’s bound)', async () => {
    class Bomb extends ShopSitemapSpider {
      static override name = 'shop-bomb';
      override sitemapUrls = [u('/bomb.xml.gz')];
    }
    const result = await runCrawl(Bomb, { DOWNLOAD_MAXSIZE: 1_000_000 });
    const warnings = result.logs.filter((l) => l.logger === 'seine.spiders.sitemap').map((l) => l.message);
    expect(warnings[0]).toBe(`<200 ${u('/bomb.xml.gz')}> body is larger than DOWNLOAD_MAXSIZE (1000000 bytes) once decompressed: ignored`);
    expect(site.hits).not.toContain('/bomb-page');
    // Under a larger limit the same sitemap is read.
    site.reset();
    const allowed = await runCrawl(Bomb, { DOWNLOAD_MAXSIZE: 4_000_000 });
    expect(allowed.items).toEqual([{ page: '/bomb-page', callback: 'parse' }]);
  });

  it('requests the valid URLs of a sitemap with invalid ones, logging each invalid one; an invalid sitemapUrls entry is an ERROR', async () => {
    class Flawed extends ShopSitemapSpider {
      static override name = 'shop-flawed';
      override sitemapUrls = ['sitemap.xml', u('/flawed.xml')];
    }
    const result = await runCrawl(Flawed);
    expect(site.hits.sort()).toEqual(['/about', '/flawed.xml', '/product/1']);
    expect(byPage(result.items).map((item) => item['page'])).toEqual(['/about', '/product/1']);
    const flawed = `<200 ${u('/flawed.xml')}>`;
    expect(result.logs.filter((l) => /^(Skipping|Ignoring link)/.test(l.message)).map((l) => `${l.level} [${l.logger}] ${l.message}`)).toEqual([
      "ERROR [shop-flawed] Skipping start URL 'sitemap.xml': Missing scheme in request url: sitemap.xml (write an absolute URL such as 'https://example.com/page', or use response.follow() to join a link to the page's URL)",
      `WARNING [shop-flawed] Ignoring link 'http://exa mple.com/x' on ${flawed}: Malformed request url: http://exa mple.com/x (not a URL by the URL standard: check the host and port)`,
      `WARNING [shop-flawed] Ignoring link '/relative' on ${flawed}: Missing scheme in request url: /relative (write an absolute URL such as 'https://example.com/page', or use response.follow() to join a link to the page's URL)`,
    ]);
    expect(result.stats['spider/invalid_url']).toBe(3);
  });

  it('works with ROBOTSTXT_OBEY on, robots.txt being both the rules and a sitemap source', async () => {
    class Obeying extends ShopSitemapSpider {
      static override name = 'shop-obeying';
      override sitemapUrls = [u('/robots.txt')];
    }
    const result = await runCrawl(Obeying, { ROBOTSTXT_OBEY: true });
    expect(byPage(result.items).map((item) => item['page'])).toEqual(['/about', '/news/today', '/product/1', '/product/2']);
  });
});

async function outputs(result: unknown): Promise<Request[]> {
  const out: Request[] = [];
  for await (const o of callbackOutputs(result as never)) out.push(o as Request);
  return out;
}

function xml(url: string, body: string): Response {
  return new Response({ url, body, headers: { 'Content-Type': 'application/xml' } });
}

describe('SitemapSpider', () => {
  it('has Scrapy’s defaults: every URL to parse, every index entry followed, no alternates', () => {
    class Plain extends SitemapSpider {
      static override name = 'plain';
    }
    const spider = createSpider(Plain);
    expect([spider.sitemapUrls, spider.sitemapRules, spider.sitemapFollow, spider.sitemapAlternateLinks]).toEqual([[], [['', 'parse']], [''], false]);
  });

  it('requests each sitemap URL with parseSitemap, duplicate-filtered like Scrapy’s', async () => {
    class Two extends SitemapSpider {
      static override name = 'two';
      override sitemapUrls = ['http://example.com/a.xml', 'http://example.com/robots.txt'];
    }
    const spider = createSpider(Two);
    const requests: Request[] = [];
    for await (const r of spider.start()) requests.push(r as Request);
    expect(requests.map((r) => [r.url, r.callback === spider.parseSitemap, r.dontFilter])).toEqual([
      ['http://example.com/a.xml', true, false],
      ['http://example.com/robots.txt', true, false],
    ]);
  });

  it('takes RegExp patterns and functions as rules, searches anywhere in the URL, and drops URLs no rule matches', async () => {
    const onlyItems = function (this: SitemapSpider) {
      return [];
    };
    class Routed extends SitemapSpider {
      static override name = 'routed';
      override sitemapRules: readonly SitemapRule[] = [[/item\/\d+$/, onlyItems]];
    }
    const spider = createSpider(Routed);
    const body = urlset([{ loc: 'http://example.com/shop/item/12' }, { loc: 'http://example.com/shop/item/12/reviews' }, { loc: 'http://example.com/help' }]);
    const out = await outputs(spider.parseSitemap(xml('http://example.com/sitemap.xml', body)));
    expect(out.map((r) => [r.url, r.callback === onlyItems])).toEqual([['http://example.com/shop/item/12', true]]);
  });

  it('does nothing with an XML document that is neither a urlset nor a sitemap index, as Scrapy', async () => {
    class Plain extends SitemapSpider {
      static override name = 'plain-rss';
    }
    const rss = '<?xml version="1.0"?><rss><channel><link>http://example.com/</link></channel></rss>';
    expect(await outputs(createSpider(Plain).parseSitemap(xml('http://example.com/feed.xml', rss)))).toEqual([]);
  });

  it('fails at start when a rule names a method the spider lacks, or a pattern is not a regular expression', async () => {
    class Typo extends SitemapSpider {
      static override name = 'typo';
      override sitemapUrls = ['http://example.com/sitemap.xml'];
      override sitemapRules: readonly SitemapRule[] = [['/item/', 'parseItme']];
    }
    await expect(createSpider(Typo).start()[Symbol.asyncIterator]().next()).rejects.toThrow(
      new SpiderDefinitionError("Typo.sitemapRules[0]: callback 'parseItme' is not a method of Typo: define parseItme() on the spider, or pass the function itself"),
    );
    class BadPattern extends SitemapSpider {
      static override name = 'bad-pattern';
      override sitemapFollow = ['(unclosed'];
    }
    await expect(createSpider(BadPattern).start()[Symbol.asyncIterator]().next()).rejects.toThrow(
      /^BadPattern\.sitemapFollow\[0\]: '\(unclosed' is not a valid regular expression \(/,
    );
  });
});
