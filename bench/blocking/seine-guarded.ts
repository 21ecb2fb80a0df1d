/**
 * The spider seine runs on the guarded site (spec/blocking/guarded-crawl.spec.ts
 * and `npm run bench:blocking`, both through `seine runspider`):
 *
 *   seine runspider bench/blocking/seine-guarded.ts -a site=http://127.0.0.1:<port> \
 *     -s 'PROXY_LIST=["<url>","<url>"]' -s 'DOWNLOAD_SLOTS={"127.0.0.1":{"rate":"240/m"}}' -s SESSIONS_MAX_USAGE=20 -O items.jsonl
 *
 * What the site needs is in the spider; what depends on the machine (the
 * proxies' ports, the rate) comes from `-s`. Listing pages are asked for with
 * `playwright: 'auto'` (their product links are written by a script: seine
 * finds out, and renders them); product pages are plain. The account area is
 * pinned to one session, `account`, so the cookie the login sets is sent
 * with every page after it.
 *
 * A page asked without its cookie redirects to /challenge, which sets the
 * cookie and redirects back to the same URL: seine follows such a cookie
 * wall past the duplicate filter (Scrapy would drop the second visit), so
 * the requests need no dontFilter. A session keeps its proxy (the site ties
 * its cookie to the client's address) whatever PROXY_ROTATION says.
 */

import { FormRequest, Request, Spider, type Response } from 'seine';

export class GuardedSpider extends Spider {
  static override name = 'guarded';
  static override customSettings = {
    SESSIONS_ENABLED: true,
    SESSIONS_BLOCKED_SELECTOR: '.captcha',
    // Retry-After and the slot's rate do the waiting; ordinary retries of 429 would only add to it.
    RETRY_HTTP_CODES: [500, 502, 503, 504, 522, 524, 408],
  };
  declare site?: string;
  declare user?: string;
  declare password?: string;

  override async *start() {
    if (this.site === undefined) throw new Error('guarded needs the site: -a site=http://127.0.0.1:<port>');
    yield new Request(`${this.site}/list/1`, { callback: this.parseList, meta: { playwright: 'auto' } });
    yield new FormRequest(`${this.site}/login`, {
      formdata: { user: this.user ?? 'reader', password: this.password ?? 'secret' },
      callback: this.parseAccount,
      meta: { session_id: 'account' },
    });
  }

  *parseList(response: Response) {
    for (const href of response.css('a.product::attr(href)').getall()) {
      yield response.follow(href, { callback: this.parseProduct });
    }
    const next = response.css('a.next::attr(href)').get();
    if (next !== null) yield response.follow(next, { callback: this.parseList, meta: { playwright: 'auto' } });
  }

  *parseProduct(response: Response) {
    yield {
      id: response.css('span.sku::text').get(),
      name: response.css('h1.name::text').get(),
      price: response.css('p.price::text').get(),
    };
  }

  *parseAccount(response: Response) {
    for (const order of response.css('li.order')) {
      yield { id: order.attrib['data-id'], total: order.css('span.total::text').get() };
    }
    const next = response.css('a.next::attr(href)').get();
    if (next !== null) {
      yield response.follow(next, { callback: this.parseAccount, meta: { session_id: response.meta.session_id } });
    }
  }
}
