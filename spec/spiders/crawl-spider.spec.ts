import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CrawlSpider, LinkExtractor, Request, Response, Rule, createSpider, type Item } from '../../src/index.js';
import { SpiderDefinitionError } from '../../src/contracts/spider-errors.js';
import { callbackOutputs } from '../../src/contracts/callback-output.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

async function outputs(result: unknown): Promise<Array<Item | Request>> {
  const out: Array<Item | Request> = [];
  for await (const o of callbackOutputs(result as never)) out.push(o);
  return out;
}

const PAGE = `<html><body>
<a href="/category/a/">Cat A</a><a href="/item/1">Item 1</a><a href="/item/2">Item 2</a><a href="/category/a/">Cat A again</a>
</body></html>`;

function page(url = 'http://example.com/', body = PAGE, request?: Request): Response {
  return new Response({ url, body, headers: { 'Content-Type': 'text/html; charset=utf-8' }, request: request ?? new Request(url) });
}

class ShopSpider extends CrawlSpider {
  static override name = 'shop';
  override rules = [
    new Rule(new LinkExtractor({ allow: /category/ })),
    new Rule(new LinkExtractor({ allow: /item/ }), { callback: 'parseItem', cbKwargs: { from: 'rule' } }),
    new Rule(new LinkExtractor()),
  ];

  *parseItem(response: Response, kwargs: Record<string, unknown>) {
    yield { url: response.url, from: kwargs['from'], linkText: response.meta['link_text'] };
  }
}

describe('Rule', () => {
  it('follows by default only when it has no callback', () => {
    expect(new Rule(null).follow).toBe(true);
    expect(new Rule(null, { callback: 'parseItem' }).follow).toBe(false);
    expect(new Rule(null, { callback: 'parseItem', follow: true }).follow).toBe(true);
  });
});

describe('CrawlSpider', () => {
  it('requests each link once, by the first rule that extracted it, with rule and link_text in meta', async () => {
    const spider = createSpider(ShopSpider);
    const out = (await outputs(spider.parse(page()))) as Request[];
    expect(out.map((r) => [r.url, r.meta['rule'], r.meta['link_text']])).toEqual([
      ['http://example.com/category/a/', 0, 'Cat A'],
      ['http://example.com/item/1', 1, 'Item 1'],
      ['http://example.com/item/2', 1, 'Item 2'],
    ]);
    expect(out[0]!.errback).toBeNull();
  });

  it("sends a rule's responses to its callback with its cbKwargs, and follows only when the rule says so", async () => {
    const spider = createSpider(ShopSpider);
    const [request] = ((await outputs(spider.parse(page()))) as Request[]).filter((r) => r.url.endsWith('/item/1'));
    const response = page('http://example.com/item/1', PAGE, request);
    const out = await outputs(request!.callback!.call(spider, response, request!.cbKwargs));
    expect(out).toEqual([{ url: 'http://example.com/item/1', from: 'rule', linkText: 'Item 1' }]);
  });

  it('passes links through processLinks and requests through processRequest, which may drop them', async () => {
    class Hooked extends CrawlSpider {
      static override name = 'hooked';
      override rules = [
        new Rule(new LinkExtractor(), {
          processLinks: (links) => links.filter((l) => l.url.includes('item')),
          processRequest: 'tag',
        }),
      ];
      tag(request: Request) {
        return request.url.endsWith('/2') ? null : request.replace({ priority: 5 });
      }
    }
    const out = (await outputs(createSpider(Hooked).parse(page()))) as Request[];
    expect(out.map((r) => [r.url, r.priority])).toEqual([['http://example.com/item/1', 5]]);
  });

  it('calls parseStartUrl and processResults for start responses', async () => {
    class Start extends CrawlSpider {
      static override name = 'start';
      override parseStartUrl(response: Response) {
        return [{ start: response.url }, { drop: true }];
      }
      override processResults(_r: Response, results: Array<Item | Request>) {
        return results.filter((r) => !(r as { drop?: boolean }).drop);
      }
    }
    expect(await outputs(createSpider(Start).parse(page()))).toEqual([{ start: 'http://example.com/' }]);
  });

  it('names a rule hook that is not a method, at start', async () => {
    class Typo extends CrawlSpider {
      static override name = 'typo';
      override rules = [new Rule(null, { callback: 'parseItme' })];
    }
    const start = createSpider(Typo).start()[Symbol.asyncIterator]();
    await expect(start.next()).rejects.toThrow(
      new SpiderDefinitionError("Typo.rules[0]: callback 'parseItme' is not a method of Typo: define parseItme() on the spider, or pass the function itself"),
    );
  });

  it('gives a rule with an errback the errors of its requests', async () => {
    class WithErrback extends CrawlSpider {
      static override name = 'errback';
      override rules = [new Rule(null, { errback: 'failed' })];
      failed(error: Error, request: Request) {
        return [{ failed: request.url, error: error.message }];
      }
    }
    const spider = createSpider(WithErrback);
    const [request] = (await outputs(spider.parse(page()))) as Request[];
    expect(await outputs(request!.errback!.call(spider, new Error('boom'), request!))).toEqual([{ failed: 'http://example.com/category/a/', error: 'boom' }]);
  });

  it('follows nothing from a non-HTML response', async () => {
    const json = new Response({ url: 'http://example.com/a.json', body: '{"a": "<a href=\\"/x\\">"}', headers: { 'Content-Type': 'application/json' }, request: new Request('http://example.com/a.json') });
    expect(await outputs(createSpider(ShopSpider).parse(json))).toEqual([]);
  });
});

describe('CrawlSpider in a crawl', () => {
  let site: TestSite;
  beforeAll(async () => {
    const list = (n: number) => `<html><body><a href="/item/${n}1">i</a><a href="/item/${n}2">i</a><a href="/category/${n + 1}/">next</a></body></html>`;
    site = await startSite({
      '/': '<html><body><a href="/category/1/">start</a><a href="/about/">about</a></body></html>',
      '/category/1/': list(1),
      '/category/2/': list(2),
      '/category/3/': '<html><body>end</body></html>',
      ...Object.fromEntries(['11', '12', '21', '22'].map((n) => [`/item/${n}`, `<html><body><h1>Item ${n}</h1><a href="/category/9/">deep</a></body></html>`])),
    });
  });
  afterAll(async () => site.close());

  it('crawls categories and scrapes items, not following from item pages', async () => {
    const startUrl = site.url('/');
    class SiteSpider extends CrawlSpider {
      static override name = 'site';
      override startUrls = [startUrl];
      override rules = [
        new Rule(new LinkExtractor({ allow: '/category/' })),
        new Rule(new LinkExtractor({ allow: '/item/' }), { callback: 'parseItem' }),
      ];
      parseItem(response: Response) {
        return { title: response.css('h1::text').get() };
      }
    }
    const result = await runCrawl(SiteSpider);
    expect(result.items.map((i) => i['title']).sort()).toEqual(['Item 11', 'Item 12', 'Item 21', 'Item 22']);
    expect([...site.hits].sort()).toEqual(['/', '/category/1/', '/category/2/', '/category/3/', '/item/11', '/item/12', '/item/21', '/item/22']);
  });

  it('follows no links with CRAWLSPIDER_FOLLOW_LINKS off', async () => {
    site.reset();
    const startUrl = site.url('/');
    class Still extends CrawlSpider {
      static override name = 'still';
      override startUrls = [startUrl];
      override rules = [new Rule(new LinkExtractor())];
    }
    await runCrawl(Still, { CRAWLSPIDER_FOLLOW_LINKS: false });
    expect(site.hits).toEqual(['/']);
  });

  it('follows the other links of a page with a malformed href, logging that one at WARNING and counting it', async () => {
    const bad = await startSite({
      '/': '<html><body><a href="/item/1">1</a><a href="http://exa mple.com/">bad</a><a href="/item/2">2</a><a href="/item/3">3</a></body></html>',
      ...Object.fromEntries([1, 2, 3].map((n) => [`/item/${n}`, `<html><body><h1>Item ${n}</h1></body></html>`])),
    });
    try {
      const startUrl = bad.url('/');
      class Tolerant extends CrawlSpider {
        static override name = 'tolerant';
        override startUrls = [startUrl];
        override rules = [new Rule(new LinkExtractor(), { callback: 'parseItem' })];
        parseItem(response: Response) {
          return { title: response.css('h1::text').get() };
        }
      }
      const result = await runCrawl(Tolerant);
      // Scrapy 2.8 requests the bad link too and its download fails, silently (the rule's errback swallows it).
      expect([...bad.hits].sort()).toEqual(['/', '/item/1', '/item/2', '/item/3']);
      expect(result.items.map((i) => i['title']).sort()).toEqual(['Item 1', 'Item 2', 'Item 3']);
      expect(result.logs.filter((l) => l.message.startsWith('Ignoring link')).map((l) => `${l.level} [${l.logger}] ${l.message}`)).toEqual([
        `WARNING [tolerant] Ignoring link 'http://exa mple.com/' on <200 ${startUrl}>: Malformed request url: http://exa mple.com/ (not a URL by the URL standard: check the host and port)`,
      ]);
      expect(result.stats['spider/invalid_url']).toBe(1);
      expect(result.stats['spider_exceptions/InvalidUrlError']).toBeUndefined();
      expect(result.lines.some((line) => line.startsWith('Spider error processing'))).toBe(false);
    } finally {
      await bad.close();
    }
  });
});
