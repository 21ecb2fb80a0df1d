/** Type tests for `seine/shell` and SitemapSpider, checked by `npx tsc --noEmit`; not a jest file: the type check in `npm test` is the test. */
import { inspectResponse, ShellFetchError } from '../../src/shell/index.js';
import { SitemapSpider, Spider, type Response, type SitemapEntry, type SitemapRule } from '../../src/index.js';

export class DebugSpider extends Spider {
  static override name = 'debug';

  override async *parse(response: Response) {
    // As docs/shell.md writes it: awaited in a callback, with the spider as `this`.
    const done: Promise<void> = inspectResponse(response, this);
    await done;
    yield { url: response.url };
  }
}

export class ShopSpider extends SitemapSpider {
  static override name = 'shop';
  override sitemapUrls = ['http://127.0.0.1:8000/robots.txt'];
  override sitemapRules: readonly SitemapRule[] = [['/product/', 'parseProduct'], [/\/blog\//, (response: Response) => [{ blog: response.url }]]];
  override sitemapFollow = ['/sitemap_products', /shop/];

  override *sitemapFilter(entries: Iterable<SitemapEntry>) {
    for (const entry of entries) if (entry.lastmod === undefined || entry.lastmod >= '2024') yield entry;
  }

  *parseProduct(response: Response) {
    yield { product: response.url };
  }
}

export function shellTypes(response: Response, spider: Spider): void {
  // @ts-expect-error the spider is required: inspectResponse pauses its crawl
  void inspectResponse(response);
  // @ts-expect-error the first argument is a Response, not a URL
  void inspectResponse('http://127.0.0.1/', spider);
  const error: ShellFetchError = new ShellFetchError('x');
  const code: string = ShellFetchError.code;
  void [error, code];
}

export function sitemapTypes(): void {
  class BadRules extends SitemapSpider {
    static override name = 'bad-rules';
    // @ts-expect-error a rule is [pattern, callback]
    override sitemapRules: readonly SitemapRule[] = [['/product/']];
  }
  void BadRules;
}
