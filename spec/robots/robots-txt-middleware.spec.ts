import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IgnoreRequest, NotConfigured } from '../../src/contracts/control-flow.js';
import { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { RobotsCache } from '../../src/robots/robots-cache.js';
import { RobotsTxtMiddleware, createRobots } from '../../src/robots/robots-txt-middleware.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';
import { downloader, startSite, type LocalSite } from './local-site.js';

const ROBOTS = `User-agent: *
Disallow: /private
Disallow: /*.json$

User-agent: seine
Disallow: /no-seine

User-agent: custombot
Disallow: /no-custom
`;

async function rejection(promise: Promise<void> | undefined): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('RobotsTxtMiddleware', () => {
  let site: LocalSite;

  beforeAll(async () => {
    site = await startSite({ '/robots.txt': { body: ROBOTS } });
  });

  afterAll(() => site.close());

  it('drops a forbidden request with a DEBUG line, robotstxt/forbidden and an IgnoreRequest', async () => {
    const crawler = fakeCrawler({ ROBOTSTXT_OBEY: true, USER_AGENT: 'otherbot/1.0' });
    const middleware = RobotsTxtMiddleware.fromCrawler(crawler, downloader());
    const forbidden = new Request(`${site.origin}/private/page`);
    const error = await rejection(middleware.processRequest(forbidden, crawler.spider));
    expect(error).toBeInstanceOf(IgnoreRequest);
    expect((error as Error).message).toBe('Forbidden by robots.txt');
    expect(await rejection(middleware.processRequest(new Request(`${site.origin}/data.json`), crawler.spider))).toBeInstanceOf(IgnoreRequest);
    expect(await rejection(middleware.processRequest(new Request(`${site.origin}/data.json?x=1`), crawler.spider))).toBeUndefined();
    expect(await rejection(middleware.processRequest(new Request(`${site.origin}/public`), crawler.spider))).toBeUndefined();
    expect(crawler.textLines()).toEqual([
      `DEBUG [seine.downloadermiddlewares.robotstxt] Forbidden by robots.txt: <GET ${site.origin}/private/page>`,
      `DEBUG [seine.downloadermiddlewares.robotstxt] Forbidden by robots.txt: <GET ${site.origin}/data.json>`,
    ]);
    expect(crawler.stats.getAll()).toEqual({
      'robotstxt/request_count': 1,
      'robotstxt/response_count': 1,
      'robotstxt/response_status_count/200': 1,
      'robotstxt/forbidden': 2,
    });
  });

  it('returns undefined for an allowed request once the origin\'s robots.txt is in, and a rejection for a forbidden one', async () => {
    const middleware = RobotsTxtMiddleware.fromCrawler(fakeCrawler({ ROBOTSTXT_OBEY: true }), downloader());
    const first = middleware.processRequest(new Request(`${site.origin}/a`));
    expect(first).toBeInstanceOf(Promise);
    await first;
    expect(middleware.processRequest(new Request(`${site.origin}/b`))).toBeUndefined();
    const forbidden = middleware.processRequest(new Request(`${site.origin}/no-seine`));
    expect(forbidden).toBeInstanceOf(Promise);
    expect(await rejection(forbidden)).toBeInstanceOf(IgnoreRequest);
  });

  it('matches ROBOTSTXT_USER_AGENT first, then the request\'s User-Agent, then USER_AGENT', async () => {
    const byDefault = RobotsTxtMiddleware.fromCrawler(fakeCrawler({ ROBOTSTXT_OBEY: true }), downloader());
    expect(byDefault.userAgent).toMatch(/^seine\//);
    expect(await rejection(byDefault.processRequest(new Request(`${site.origin}/no-seine`)))).toBeInstanceOf(IgnoreRequest);
    const withHeader = new Request(`${site.origin}/no-custom`, { headers: { 'User-Agent': 'Mozilla/5.0 (compatible; CustomBot/2.0)' } });
    expect(byDefault.userAgentFor(withHeader)).toBe('Mozilla/5.0 (compatible; CustomBot/2.0)');
    expect(await rejection(byDefault.processRequest(withHeader))).toBeInstanceOf(IgnoreRequest);
    const overridden = RobotsTxtMiddleware.fromCrawler(fakeCrawler({ ROBOTSTXT_OBEY: true, ROBOTSTXT_USER_AGENT: 'custombot' }), downloader());
    expect(overridden.userAgentFor(withHeader)).toBe('custombot');
    expect(await rejection(overridden.processRequest(new Request(`${site.origin}/no-seine`)))).toBeUndefined();
    expect(await rejection(overridden.processRequest(new Request(`${site.origin}/no-custom`)))).toBeInstanceOf(IgnoreRequest);
  });

  it('skips requests with meta.dont_obey_robotstxt and data: or file: URLs without fetching', () => {
    const middleware = new RobotsTxtMiddleware({ download: () => Promise.reject(new Error('should not be called')) });
    expect(middleware.processRequest(new Request('http://example.com/private', { meta: { dont_obey_robotstxt: true } }))).toBeUndefined();
    expect(middleware.processRequest(new Request('data:text/plain,hi'))).toBeUndefined();
    expect(middleware.processRequest(new Request('file:///etc/hosts'))).toBeUndefined();
  });

  it('lets requests through when robots.txt is a 404', async () => {
    const empty = await startSite({ '/robots.txt': { status: 404 } });
    try {
      const crawler = fakeCrawler({ ROBOTSTXT_OBEY: true });
      const middleware = RobotsTxtMiddleware.fromCrawler(crawler, downloader());
      await middleware.processRequest(new Request(`${empty.origin}/private`));
      expect(crawler.textLines()).toEqual([]);
      expect(crawler.stats.get('robotstxt/response_status_count/404')).toBe(1);
    } finally {
      await empty.close();
    }
  });

  it('shares a cache it is given', async () => {
    const cache = new RobotsCache({ download: downloader() });
    const first = new RobotsTxtMiddleware({ cache });
    const second = new RobotsTxtMiddleware({ cache, userAgent: 'otherbot' });
    const before = site.hits.get('/robots.txt') ?? 0;
    await first.processRequest(new Request(`${site.origin}/x`));
    expect(second.processRequest(new Request(`${site.origin}/y`))).toBeUndefined();
    expect((site.hits.get('/robots.txt') ?? 0) - before).toBe(1);
  });

  it('switches itself off unless ROBOTSTXT_OBEY is on', () => {
    expect(() => RobotsTxtMiddleware.fromCrawler(fakeCrawler(), downloader())).toThrow(NotConfigured);
  });

  it('uses crawler.download when no download function is passed, and says what is missing otherwise', async () => {
    const crawler = fakeCrawler({ ROBOTSTXT_OBEY: true });
    expect(() => RobotsTxtMiddleware.fromCrawler(crawler)).toThrow(
      "RobotsTxtMiddleware.fromCrawler(crawler, download) needs the engine's download function: pass it, or give the crawler a download(request) method",
    );
    const seen: string[] = [];
    const withDownload = Object.assign(crawler, {
      download: async (request: Request) => {
        seen.push(request.url);
        return new Response({ url: request.url, body: 'User-agent: *\nDisallow: /\n', request });
      },
    });
    const middleware = RobotsTxtMiddleware.fromCrawler(withDownload);
    expect(await rejection(middleware.processRequest(new Request('http://example.com/a')))).toBeInstanceOf(IgnoreRequest);
    expect(seen).toEqual(['http://example.com/robots.txt']);
  });

  it('needs a cache or a download function when built by hand', () => {
    expect(() => new RobotsTxtMiddleware({})).toThrow('RobotsTxtMiddleware needs a `cache` or a `download` function to fetch robots.txt with');
  });
});

describe('createRobots', () => {
  it('gives null when ROBOTSTXT_OBEY is off and a check that answers false for forbidden requests when on', async () => {
    const download = async (request: Request): Promise<Response> => new Response({ url: request.url, body: 'User-agent: *\nDisallow: /no\n', request });
    expect(createRobots(fakeCrawler(), download)).toBeNull();
    const crawler = fakeCrawler({ ROBOTSTXT_OBEY: true });
    const robots = createRobots(crawler, download)!;
    expect(await robots.allowed(new Request('http://example.com/no'))).toBe(false);
    expect(await robots.allowed(new Request('http://example.com/yes'))).toBe(true);
    expect(crawler.textLines()).toEqual(['DEBUG [seine.downloadermiddlewares.robotstxt] Forbidden by robots.txt: <GET http://example.com/no>']);
    expect(crawler.stats.get('robotstxt/forbidden')).toBe(1);
  });
});
