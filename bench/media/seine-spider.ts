/**
 * The spider seine runs in bench:media (`seine runspider`), the twin of
 * scrapy_spider.py: one request per listing page, one item per product with
 * its image in `image_urls`, ImagesPipeline with two thumbnail sizes.
 * `-a site=http://127.0.0.1:<port> -a pages=N`.
 */
import { Request, Spider, type Response } from 'seine';

export class MediaBenchSpider extends Spider {
  static override name = 'mediabench';
  static override customSettings = {
    ITEM_PIPELINES: { ImagesPipeline: 1 },
    IMAGES_THUMBS: { small: [50, 50], big: [270, 270] },
  };
  declare site?: string;
  declare pages?: string;

  override async *start() {
    if (this.site === undefined) throw new Error('mediabench needs the site: -a site=http://127.0.0.1:<port>');
    for (let n = 0; n < Number(this.pages ?? 1); n++) yield new Request(`${this.site}/list/${n}`, { callback: this.parse });
  }

  override *parse(response: Response) {
    for (const src of response.css('div.product img::attr(src)').getall()) yield { image_urls: [response.urljoin(src)] };
  }
}
