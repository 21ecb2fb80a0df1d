/**
 * The tutorial's quotes spider, as `seine demo` runs it: one item
 * `{ text, author, tags }` per quote, following `li.next a` through every
 * listing page. The only difference from the tutorial's file is where the
 * site is: the demo serves it on a free port, handed over as the spider
 * argument `site` (the tutorial names http://127.0.0.1:8000/ instead).
 */
import { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { Spider } from '../contracts/spider.js';
import { SPIDER_CLASS_NAME } from '../contracts/spider-brand.js';

export class DemoQuotesSpider extends Spider {
  static override name = 'quotes';
  /** What `<DemoQuotesSpider 'quotes'>` names, also from the bundled dist/ (spider-brand.ts). */
  static readonly [SPIDER_CLASS_NAME] = 'DemoQuotesSpider';
  /** The demo site's home URL, e.g. `http://127.0.0.1:8000/`; `declare` keeps the argument (docs/dependencies.md). */
  declare site?: string;

  override async *start(): AsyncIterable<Request> {
    yield new Request(new URL('/page/1/', this.site ?? 'http://127.0.0.1:8000/').href, { callback: this.parse });
  }

  override *parse(response: Response): Generator<Request | Record<string, unknown>> {
    for (const quote of response.css('div.quote')) {
      yield {
        text: quote.css('span.text::text').get(),
        author: quote.css('small.author::text').get(),
        tags: quote.css('div.tags a.tag::text').getall(),
      };
    }
    const next = response.css('li.next a::attr(href)').get();
    if (next != null) yield response.follow(next, this.parse);
  }
}
