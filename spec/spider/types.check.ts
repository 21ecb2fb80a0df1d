/** Type tests for Spider and createSpider, checked by `npx tsc --noEmit`; not a jest file: the type check in `npm test` is the test. */
import { Request } from '../../src/http/request.js';
import type { Response } from '../../src/http/response.js';
import { Spider, isSpiderClass, type SpiderClass } from '../../src/contracts/spider.js';
import { createSpider } from '../../src/contracts/create-spider.js';

// A spider with the members docs/spiders.md describes; `override` only because this repository compiles with noImplicitOverride.
export class QuotesSpider extends Spider {
  static override name = 'quotes';
  static override customSettings = { DOWNLOAD_DELAY: 0.5 };
  tag?: string;
  override startUrls = ['http://127.0.0.1:8000/page/1/'];

  override async *start() {
    yield new Request('http://127.0.0.1:8000/page/1/', { callback: this.parse });
  }

  override *parse(response: Response) {
    for (const quote of response.css('div.quote')) {
      yield { text: quote.css('span.text::text').get(), tags: quote.css('a.tag::text').getall() };
    }
    const next = response.css('li.next a::attr(href)').get();
    if (next != null) yield response.follow(next, this.parse);
  }
}

export function spiderTypes(): void {
  const spider: QuotesSpider = createSpider(QuotesSpider, { tag: 'humor' });
  const tag: string | undefined = spider.tag;
  const name: string = spider.name;
  spider.logger.info('hello');
  const cls: SpiderClass = QuotesSpider;
  void [tag, name, cls];
  // @ts-expect-error only Spider subclasses
  createSpider(Date, {});
  // @ts-expect-error the name is read-only: it comes from the class
  spider.name = 'other';
  const value: unknown = QuotesSpider;
  if (isSpiderClass(value)) new value({});

  class BadParse extends Spider {
    static override name = 'bad';
    // @ts-expect-error parse takes a Response
    override parse(response: number) {
      return response;
    }
  }
  void BadParse;
}
