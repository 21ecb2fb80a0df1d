/**
 * The spider `seine bench` runs (Scrapy's `_BenchSpider`): one request to
 * the bench server's root, then every link of every page, found with the
 * default LinkExtractor. It scrapes no items: the benchmark measures
 * requests, responses and link extraction only.
 */
import { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { LinkExtractor } from '../link-extractor/index.js';
import { Spider } from '../contracts/spider.js';
import { SPIDER_CLASS_NAME } from '../contracts/spider-brand.js';

export class BenchSpider extends Spider {
  static override name = 'follow';
  /** What `<BenchSpider 'follow'>` names, also from the bundled dist/ (spider-brand.ts). */
  static readonly [SPIDER_CLASS_NAME] = 'BenchSpider';
  /** Spider arguments (strings, from the bench command); `declare` keeps them. */
  declare baseurl?: string;
  declare total?: string;
  declare show?: string;
  private readonly linkExtractor = new LinkExtractor();

  override async *start(): AsyncIterable<Request> {
    const url = new URL(this.baseurl ?? 'http://127.0.0.1:8998/');
    url.search = new URLSearchParams({ total: this.total ?? '10000', show: this.show ?? '20' }).toString();
    yield new Request(url.href, { dontFilter: true });
  }

  override *parse(response: Response): Generator<Request> {
    for (const link of this.linkExtractor.extractLinks(response)) yield new Request(link.url, { callback: this.parse });
  }
}
