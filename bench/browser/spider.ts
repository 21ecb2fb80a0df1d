/** The browser benchmark's spider: every page once, rendered (`-a render=1`) or plainly; an item per quote. */
import { Request, Spider, type Response } from 'seine';

export class BrowserBenchSpider extends Spider {
  static override name = 'browser-bench';
  declare base: string;
  declare pages: string;
  declare render?: string;

  override async *start() {
    for (let n = 1; n <= Number(this.pages); n++) {
      yield new Request(`${this.base}/page/${n}`, { meta: { playwright: this.render === '1' } });
    }
  }

  override *parse(response: Response) {
    for (const quote of response.css('div.quote')) {
      yield { text: quote.css('span.text::text').get(), author: quote.css('small.author::text').get() };
    }
  }
}
