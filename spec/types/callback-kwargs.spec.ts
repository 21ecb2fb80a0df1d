import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Request, Spider, type Response } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

/**
 * A callback whose keyword arguments are typed type-checks against Request's
 * callback (`npm test` runs tsc over spec/), and receives the request's cbKwargs.
 */

let site: TestSite;
beforeAll(async () => {
  site = await startSite({ '/list': '<html><body><a href="/detail">d</a></body></html>', '/detail': '<html><body><h1>Detail</h1></body></html>' });
});
afterAll(async () => site.close());

describe('typed cbKwargs', () => {
  it('parseDetail(response, { page }: { page: number }) is a valid callback and gets its arguments', async () => {
    const start = site.url('/list');
    class Typed extends Spider {
      static override name = 'typed';
      override startUrls = [start];
      override *parse(response: Response) {
        yield response.follow('/detail', { callback: this.parseDetail, cbKwargs: { page: 2, label: 'x' } });
      }
      *parseDetail(response: Response, { page, label }: { page: number; label: string }) {
        yield { title: response.css('h1::text').get(), page: page + 1, label };
      }
    }
    // Also directly as a Request's callback.
    const request = new Request(start, { callback: Typed.prototype.parseDetail, cbKwargs: { page: 1, label: 'y' } });
    expect(request.callback).toBe(Typed.prototype.parseDetail);
    const result = await runCrawl(Typed);
    expect(result.items).toEqual([{ title: 'Detail', page: 3, label: 'x' }]);
  });
});
