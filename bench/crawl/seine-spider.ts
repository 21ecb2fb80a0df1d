/**
 * The spider seine runs in the crawl benchmark (`seine runspider`), the twin
 * of scrapy_spider.py: the same start page, the same four CSS queries per
 * entry, and every link of every page followed (the duplicate filter drops
 * all but the first request for each page).
 *
 * `-a site=http://127.0.0.1:<port>` names the site; arguments are assigned
 * after construction, so start() reads it, not a field initializer.
 * bench:distributed adds `-a starts=N -a pages=P`: N start pages spread over
 * the P pages, so that N parts of the site are crawled at once (the site's
 * pages link only to their neighbours, so from one start page at most ~10
 * requests can be under way at any moment).
 */

import { Request, Spider, type Response } from 'seine';

export class CrawlBenchSpider extends Spider {
  static override name = 'crawlbench';
  declare site?: string;
  declare starts?: string;
  declare pages?: string;

  override async *start() {
    if (this.site === undefined) throw new Error('crawlbench needs the site: -a site=http://127.0.0.1:<port>');
    const starts = Number(this.starts ?? 1);
    const pages = Number(this.pages ?? 1);
    for (let i = 0; i < starts; i++) yield new Request(`${this.site}/page/${1 + Math.floor((i * pages) / starts)}/`, { callback: this.parse });
  }

  override *parse(response: Response) {
    for (const entry of response.css('div.entry')) {
      yield {
        title: entry.css('h2.entry-title a::text').get(),
        author: entry.css('a.author::text').get(),
        price: entry.css('span.price::text').get(),
        tags: entry.css('div.tags a.tag::text').getall(),
      };
    }
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
  }
}
