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
    // A cookie wall: without the cookie the page sends you to /challenge, which sets it and sends you back.
    '/walled': (req, res) => {
      if ((req.headers.cookie ?? '').includes('pass=1')) return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>in</body></html>');
      res.writeHead(302, { Location: '/challenge?next=/walled' }).end();
    },
    '/challenge': (_req, res) => void res.writeHead(302, { Location: '/walled', 'Set-Cookie': 'pass=1; Path=/' }).end(),
    // A wall that never lets in: it sets a cookie but asks again every time.
    '/wall-forever': (_req, res) => void res.writeHead(302, { Location: '/challenge-forever' }).end(),
    '/challenge-forever': (_req, res) => void res.writeHead(302, { Location: '/wall-forever', 'Set-Cookie': 'try=1; Path=/' }).end(),
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

  it('a cookie wall (page → a challenge that sets a cookie → the page) is followed without a WARNING, counted in redirect/cookie_wall', async () => {
    const result = await runCrawl(StartSpider, {}, { urls: site.url('/walled') });
    expect(warnings(result.logs)).toEqual([]);
    expect(result.items).toEqual([{ url: site.url('/walled') }]);
    expect(result.stats['redirect/cookie_wall']).toBe(1);
    expect(result.stats['redirect/loop']).toBeUndefined();
  }, TIMEOUT);

  it('a cookie wall that never lets in ends at REDIRECT_MAX_TIMES', async () => {
    const result = await runCrawl(StartSpider, { REDIRECT_MAX_TIMES: 6 }, { urls: site.url('/wall-forever') });
    expect(result.items).toEqual([]);
    expect(site.hits.filter((path) => path === '/wall-forever').length).toBeLessThanOrEqual(4);
  }, TIMEOUT);
});
