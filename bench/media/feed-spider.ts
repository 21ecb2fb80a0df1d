/**
 * The spider of bench:media's feed part: `-a site=… -a pages=P -a items=N`
 * fetches P pages and yields N items from each, ~1 KB of JSON apiece (a
 * product with a description of words from a seeded generator, so that
 * gzip has text to compress, ~4:1, not one repeated line). The feed goes
 * where FEEDS says (bench:media: gzip to the S3 server).
 */
import { Request, Spider, type Response } from 'seine';

const WORDS = 'river stone paper light cotton silver market window garden copper linen harbor amber meadow signal lantern velvet orchard canvas marble thread summit willow ember'.split(' ');

export class FeedBenchSpider extends Spider {
  static override name = 'feedbench';
  declare site?: string;
  declare pages?: string;
  declare items?: string;

  override async *start() {
    if (this.site === undefined) throw new Error('feedbench needs the site: -a site=http://127.0.0.1:<port>');
    for (let n = 0; n < Number(this.pages ?? 1); n++) yield new Request(`${this.site}/list/${n}`, { callback: this.parse, meta: { page: n } });
  }

  override *parse(response: Response) {
    const page = Number(response.meta['page']);
    const count = Number(this.items ?? 1000);
    let seed = page * 7919 + 1;
    const word = (): string => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return WORDS[seed % WORDS.length]!;
    };
    for (let i = 0; i < count; i++) {
      const description = Array.from({ length: 130 }, word).join(' ');
      yield { id: page * count + i, url: `${response.url}#${i}`, title: `${word()} ${word()} ${i}`, price: (seed % 10000) / 100, tags: [word(), word(), word()], description };
    }
  }
}
