/**
 * Redirect loops and refused redirects in real crawls against a server on
 * 127.0.0.1 (docs/security.md, "Redirects"). Scrapy 2.8 (the oracle) ends
 * /a → /b → /a in the duplicate filter at DEBUG and follows a Location of
 * ftp: and file: (reading the local file), failing on javascript: with a
 * ValueError; seine follows only http(s) and says why at WARNING.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import type { Response } from '../../../src/http/response.js';
import { Spider } from '../../../src/contracts/spider.js';
import { runCrawl, startSite, type TestSite } from '../../helpers/site-server.js';

const TIMEOUT = 30_000;

class StartSpider extends Spider {
  static override name = 'redirects';
  declare urls?: string;

  override async *start() {
    for (const url of (this.urls ?? '').split(',')) yield new Request(url, { callback: this.parse });
  }

  override *parse(response: Response) {
    yield { url: response.url };
  }
}

let site: TestSite;
const moved = (location: string) => (_req: unknown, res: { writeHead(status: number, headers: Record<string, string>): { end(): void } }) => res.writeHead(302, { Location: location }).end();

beforeAll(async () => {
  site = await startSite({
    '/a': moved('/b'),
    '/b': moved('/a'),
    '/self': moved('/self'),
    '/ftp': moved('ftp://127.0.0.1/x'),
    '/js': moved('javascript:alert(1)'),
    '/file': moved('file:///etc/passwd'),
    '/ok': moved('/done'),
    '/done': '<html><body>done</body></html>',
  });
});

afterAll(async () => {
  await site.close();
});

const warnings = (logs: Awaited<ReturnType<typeof runCrawl>>['logs']): string[] => logs.filter((event) => event.level === 'WARNING').map((event) => event.message);

describe('redirects in a crawl', () => {
  it('a loop is one WARNING per request with the chain, counted in redirect/loop, and not requested again', async () => {
    const result = await runCrawl(StartSpider, {}, { urls: [site.url('/a'), site.url('/self')].join(',') });
    const [a, b, self] = [site.url('/a'), site.url('/b'), site.url('/self')];
    expect(warnings(result.logs).sort()).toEqual([
      `Redirect loop: <GET ${a}> → <GET ${b}> → <GET ${a}> (not followed: <GET ${a}> was already requested)`,
      `Redirect loop: <GET ${self}> → <GET ${self}> (not followed: <GET ${self}> was already requested)`,
    ]);
    expect(result.stats['redirect/loop']).toBe(2);
    expect([...site.hits].sort()).toEqual(['/a', '/b', '/self']);
    expect(result.items).toEqual([]);
  }, TIMEOUT);

  it('a Location that is not http(s) is refused with a WARNING naming it and why, counted in redirect/refused_scheme; the file is not read', async () => {
    const result = await runCrawl(StartSpider, {}, { urls: ['/ftp', '/js', '/file', '/ok'].map((path) => site.url(path)).join(',') });
    expect(warnings(result.logs).sort()).toEqual([
      `Refusing to follow the redirect (302) of <GET ${site.url('/file')}> to 'file:///etc/passwd': not an http(s) URL`,
      `Refusing to follow the redirect (302) of <GET ${site.url('/ftp')}> to 'ftp://127.0.0.1/x': not an http(s) URL`,
      `Refusing to follow the redirect (302) of <GET ${site.url('/js')}> to 'javascript:alert(1)': not an http(s) URL`,
    ]);
    expect(result.stats['redirect/refused_scheme']).toBe(3);
    expect(result.items).toEqual([{ url: site.url('/done') }]);
    expect(result.stats['file_count']).toBeUndefined();
  }, TIMEOUT);
});
