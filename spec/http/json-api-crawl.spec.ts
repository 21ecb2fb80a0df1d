import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JsonRequest, Spider, type Response } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

/** A JSON API paged by POST bodies, crawled with JsonRequest and response.json(), as the docs' example does. */

let site: TestSite;
beforeAll(async () => {
  site = await startSite({
    '/api/items': (req, res) => {
      const sent = site.requests.at(-1)!;
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/json') {
        res.writeHead(415, { 'Content-Type': 'application/json' }).end('{"error": "JSON POST only"}');
        return;
      }
      const { page } = JSON.parse(sent.body) as { page: number };
      const items = [1, 2].map((i) => ({ id: (page - 1) * 2 + i, name: `item ${(page - 1) * 2 + i}` }));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ items, next: page < 3 ? page + 1 : null }));
    },
  });
});
afterAll(async () => site.close());

describe('a JSON API spider', () => {
  it('posts each page as JSON and reads the answers with response.json()', async () => {
    const api = site.url('/api/items');
    class ApiSpider extends Spider {
      static override name = 'api';
      override async *start() {
        yield new JsonRequest(api, { data: { page: 1 }, callback: this.parse });
      }
      override *parse(response: Response) {
        const answer = response.json() as { items: Array<{ id: number; name: string }>; next: number | null };
        yield* answer.items;
        if (answer.next !== null) yield new JsonRequest(api, { data: { page: answer.next }, callback: this.parse });
      }
    }
    const result = await runCrawl(ApiSpider);
    expect(result.reason).toBe('finished');
    expect(result.items).toEqual([1, 2, 3, 4, 5, 6].map((id) => ({ id, name: `item ${id}` })));
    const posts = site.requests.filter((hit) => hit.path === '/api/items');
    expect(posts.map((hit) => [hit.method, hit.body, hit.headers.accept])).toEqual(
      [1, 2, 3].map((page) => ['POST', `{"page": ${page}}`, 'application/json, text/javascript, */*; q=0.01']),
    );
  });
});
