import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CSVFeedSpider, Response, XMLFeedSpider, createSpider, type Item, type Request } from '../../src/index.js';
import type { Selector } from '../../src/selector/index.js';
import { SpiderDefinitionError } from '../../src/contracts/spider-errors.js';
import { callbackOutputs } from '../../src/contracts/callback-output.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

async function outputs(result: unknown): Promise<Array<Item | Request>> {
  const out: Array<Item | Request> = [];
  for await (const o of callbackOutputs(result as never)) out.push(o);
  return out;
}

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Feed</title>
<item><title>First</title><link>http://example.com/1</link><dc:creator>Ann</dc:creator></item>
<item><title>Second</title><link>http://example.com/2</link><dc:creator>Bob</dc:creator></item>
</channel>
</rss>`;

function xml(body: string, url = 'http://example.com/feed.xml'): Response {
  return new Response({ url, body, headers: { 'Content-Type': 'application/xml' } });
}

class RssSpider extends XMLFeedSpider {
  static override name = 'rss';
  override namespaces = [['dc', 'http://purl.org/dc/elements/1.1/']] as const;
  override parseNode(_response: Response, node: Selector) {
    return { title: node.xpath('title/text()').get(), creator: node.xpath('dc:creator/text()').get() };
  }
}

describe('XMLFeedSpider', () => {
  it.each(['iternodes', 'xml', 'html'] as const)('calls parseNode once per <item> with the %s iterator', async (iterator) => {
    const spider = createSpider(RssSpider);
    spider.iterator = iterator;
    const expected = iterator === 'html'
      ? [{ title: 'First', creator: null }, { title: 'Second', creator: null }] // HTML parsing keeps no namespaces
      : [{ title: 'First', creator: 'Ann' }, { title: 'Second', creator: 'Bob' }];
    expect(await outputs(spider.parse(xml(RSS)))).toEqual(expected);
  });

  it('runs adaptResponse first and processResults on each node', async () => {
    class Adapted extends RssSpider {
      static override name = 'adapted';
      override adaptResponse(response: Response) {
        return response.replace({ body: response.text.replace('First', 'Adapted') });
      }
      override processResults(_r: Response, results: Array<Item | Request>) {
        return results.map((r) => ({ ...(r as object), processed: true }));
      }
    }
    expect(await outputs(createSpider(Adapted).parse(xml(RSS)))).toEqual([
      { title: 'Adapted', creator: 'Ann', processed: true },
      { title: 'Second', creator: 'Bob', processed: true },
    ]);
  });

  it('says when parseNode is missing, and when the iterator is unknown', async () => {
    class Bare extends XMLFeedSpider {
      static override name = 'bare';
    }
    await expect(outputs(createSpider(Bare).parse(xml(RSS)))).rejects.toThrow(
      new SpiderDefinitionError('Bare does not define parseNode(response, selector): an XMLFeedSpider needs it to scrape the <item> nodes of http://example.com/feed.xml'),
    );
    const spider = createSpider(RssSpider);
    (spider as { iterator: string }).iterator = 'sax';
    expect(() => spider.parse(xml(RSS))).toThrow(new SpiderDefinitionError("Unsupported node iterator 'sax' in RssSpider.iterator: use 'iternodes', 'xml' or 'html'"));
  });
});

const CSV = 'id,name,price\n1,"Apple, red",0.5\n2,Pear\n3,"Melon ""big""",2\n';

function csv(body: string): Response {
  return new Response({ url: 'http://example.com/feed.csv', body, headers: { 'Content-Type': 'text/csv' } });
}

class ProductsSpider extends CSVFeedSpider {
  static override name = 'products';
  override parseRow(_response: Response, row: Record<string, string>) {
    return row;
  }
}

describe('CSVFeedSpider', () => {
  it('calls parseRow per row keyed by the first row, skipping rows of the wrong length with a warning', async () => {
    const spider = createSpider(ProductsSpider);
    const warnings: string[] = [];
    const { defaultLogBus } = await import('../../src/log/index.js');
    const sub = defaultLogBus.events$.subscribe((e) => {
      if (e.logger === 'seine.utils.iterators') warnings.push(`${e.level}: ${e.message}`);
    });
    const out = await outputs(spider.parse(csv(CSV)));
    sub.unsubscribe();
    expect(out).toEqual([
      { id: '1', name: 'Apple, red', price: '0.5' },
      { id: '3', name: 'Melon "big"', price: '2' },
    ]);
    expect(warnings).toEqual(['WARNING: ignoring row 3 (length: 2, should be: 3)']);
  });

  it('uses headers, delimiter and quotechar when set', async () => {
    class Semi extends ProductsSpider {
      static override name = 'semi';
      override headers = ['a', 'b'];
      override delimiter = ';';
      override quotechar = "'";
    }
    expect(await outputs(createSpider(Semi).parse(csv("x;'y;z'\n1;2\n")))).toEqual([{ a: 'x', b: 'y;z' }, { a: '1', b: '2' }]);
  });
});

describe('feed spiders in a crawl', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startSite({
      '/feed.xml': (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/rss+xml' }).end(RSS),
      '/feed.csv': (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/csv' }).end(CSV),
    });
  });
  afterAll(async () => site.close());

  it('scrapes an XML feed and a CSV feed served over HTTP', async () => {
    const xmlUrl = site.url('/feed.xml');
    const csvUrl = site.url('/feed.csv');
    class Rss extends RssSpider {
      static override name = 'rss-crawl';
      override startUrls = [xmlUrl];
    }
    class Products extends ProductsSpider {
      static override name = 'csv-crawl';
      override startUrls = [csvUrl];
    }
    expect((await runCrawl(Rss)).items).toEqual([{ title: 'First', creator: 'Ann' }, { title: 'Second', creator: 'Bob' }]);
    const result = await runCrawl(Products);
    expect(result.items).toEqual([{ id: '1', name: 'Apple, red', price: '0.5' }, { id: '3', name: 'Melon "big"', price: '2' }]);
    expect(result.lines).toContain('ignoring row 3 (length: 2, should be: 3)');
  });
});
