import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IgnoreRequest } from '../../src/contracts/control-flow.js';
import { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { LogBus } from '../../src/log/index.js';
import { RobotsCache, originOf } from '../../src/robots/robots-cache.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';
import { recordLogs, type LogRecord } from '../helpers/fake-crawler.js';
import { downloader, startSite, type LocalSite } from './local-site.js';

const UA = 'seine/0.1';
const ROBOTS = `User-agent: *
Disallow: /private/
Disallow: /*.pdf$
Disallow: /search?*q=

User-agent: seine
Disallow: /admin
`;

function setup(download = downloader()): { cache: RobotsCache; stats: MemoryStatsCollector; log: LogRecord } {
  const stats = new MemoryStatsCollector();
  const logBus = new LogBus();
  const log = recordLogs(logBus);
  return { cache: new RobotsCache({ download, stats, logBus }), stats, log };
}

describe('RobotsCache against a local site', () => {
  let site: LocalSite;
  let other: LocalSite;
  let notFound: LocalSite;
  let failing: LocalSite;
  let hanging: LocalSite;

  beforeAll(async () => {
    // The delay keeps robots.txt pending while the concurrent callers arrive.
    site = await startSite({ '/robots.txt': { body: ROBOTS, delayMs: 50 } });
    other = await startSite({ '/robots.txt': { body: 'User-agent: *\nDisallow: /\n' } });
    notFound = await startSite({ '/robots.txt': { status: 404, body: 'User-agent: *\nDisallow: /\n' } });
    failing = await startSite({ '/robots.txt': { status: 500, body: 'User-agent: *\nDisallow: /\n' } });
    hanging = await startSite({ '/robots.txt': { delayMs: Infinity } });
  });

  afterAll(async () => {
    await Promise.all([site, other, notFound, failing, hanging].map((s) => s.close()));
  });

  it('fetches robots.txt once per origin under concurrency', async () => {
    const { cache, stats } = setup();
    const paths = ['/a', '/private/x', '/doc.pdf', '/doc.pdf?download=1', '/search?lang=en&q=x', '/search?lang=en', '/admin/users', '/b'];
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () => Promise.all(paths.map((path) => cache.allowed(new Request(`${site.origin}${path}`), UA)))),
    );
    for (const answers of concurrent) expect(answers).toEqual([true, true, true, true, true, true, false, true]);
    expect(await cache.allowed(new Request(`${site.origin}/private/x`), 'otherbot/1.0')).toBe(false);
    expect(await cache.allowed(new Request(`${site.origin}/doc.pdf`), 'otherbot/1.0')).toBe(false);
    expect(await cache.allowed(new Request(`${site.origin}/doc.pdf?download=1`), 'otherbot/1.0')).toBe(true);
    expect(await cache.allowed(new Request(`${site.origin}/search?lang=en&q=x`), 'otherbot/1.0')).toBe(false);
    expect(site.hits.get('/robots.txt')).toBe(1);
    expect(stats.getAll()).toEqual({ 'robotstxt/request_count': 1, 'robotstxt/response_count': 1, 'robotstxt/response_status_count/200': 1 });
  });

  it('fetches each origin\'s own robots.txt', async () => {
    const { cache, stats } = setup();
    const before = other.hits.get('/robots.txt') ?? 0;
    const answers = await Promise.all([
      cache.allowed(new Request(`${other.origin}/page`), UA),
      cache.allowed(new Request(`${notFound.origin}/page`), UA),
      cache.allowed(new Request(`${other.origin}/page2`), UA),
    ]);
    expect(answers).toEqual([false, true, false]);
    expect((other.hits.get('/robots.txt') ?? 0) - before).toBe(1);
    expect(stats.get('robotstxt/request_count')).toBe(2);
  });

  it('allows everything when robots.txt is a 404, whatever its body, and logs nothing', async () => {
    const { cache, stats, log } = setup();
    expect(await cache.allowed(new Request(`${notFound.origin}/anything`), UA)).toBe(true);
    expect(stats.getAll()).toEqual({ 'robotstxt/request_count': 1, 'robotstxt/response_count': 1, 'robotstxt/response_status_count/404': 1 });
    expect(log.textLines()).toEqual([]);
  });

  it('allows everything when robots.txt answers 500', async () => {
    const { cache, stats } = setup();
    expect(await cache.allowed(new Request(`${failing.origin}/anything`), UA)).toBe(true);
    expect(stats.getAll()).toEqual({ 'robotstxt/request_count': 1, 'robotstxt/response_count': 1, 'robotstxt/response_status_count/500': 1 });
  });

  it('allows everything when robots.txt times out, logging the error once', async () => {
    // 0.5 s, not less: on a loaded machine the request must reach the server before the timeout for the hit to count.
    const { cache, stats, log } = setup(downloader(500));
    const started = Date.now();
    const answers = await Promise.all([
      cache.allowed(new Request(`${hanging.origin}/a`), UA),
      cache.allowed(new Request(`${hanging.origin}/b`), UA),
    ]);
    expect(answers).toEqual([true, true]);
    expect(await cache.allowed(new Request(`${hanging.origin}/c`), UA)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(hanging.hits.get('/robots.txt')).toBe(1);
    expect(log.textLines()).toEqual([
      `ERROR [seine.downloadermiddlewares.robotstxt] Error downloading <GET ${hanging.origin}/robots.txt>: Getting ${hanging.origin}/robots.txt took longer than 0.5 seconds.`,
    ]);
    expect(stats.getAll()).toEqual({ 'robotstxt/request_count': 1, 'robotstxt/exception_count/DownloadTimeoutError': 1 });
  });

  it('allows everything when the connection is refused', async () => {
    const closed = await startSite({});
    await closed.close();
    const { cache, stats, log } = setup();
    expect(await cache.allowed(new Request(`${closed.origin}/a`), UA)).toBe(true);
    expect(log.textLines()).toHaveLength(1);
    expect(log.textLines()[0]).toMatch(new RegExp(`^ERROR \\[seine\\.downloadermiddlewares\\.robotstxt\\] Error downloading <GET ${closed.origin}/robots\\.txt>: `));
    expect(stats.get('robotstxt/exception_count/TypeError')).toBe(1);
  });
});

describe('RobotsCache with a download function', () => {
  it('asks for <origin>/robots.txt with dont_obey_robotstxt, priority 1000 and no duplicate filtering', async () => {
    const requests: Request[] = [];
    const { cache } = setup(async (request) => {
      requests.push(request);
      throw new IgnoreRequest();
    });
    await cache.allowed(new Request('https://user:pw@Example.com:8443/a/b?c#d'), UA);
    expect(requests.map((r) => [r.url, r.method, r.meta, r.priority, r.dontFilter])).toEqual([
      ['https://example.com:8443/robots.txt', 'GET', { dont_obey_robotstxt: true }, 1000, true],
    ]);
  });

  it('treats a dropped robots.txt request (IgnoreRequest) as allow-all without logging', async () => {
    const { cache, stats, log } = setup(() => Promise.reject(new IgnoreRequest('Forbidden')));
    expect(await cache.allowed(new Request('http://example.com/a'), UA)).toBe(true);
    expect(log.textLines()).toEqual([]);
    expect(stats.getAll()).toEqual({ 'robotstxt/request_count': 1 });
  });

  it('treats a robots.txt that is not UTF-8 as empty, with a warning', async () => {
    const { cache, log } = setup(async (request) => new Response({ url: request.url, body: Buffer.from([0x55, 0x73, 0x65, 0xff, 0xfe, 0x0a]), request }));
    expect(await cache.allowed(new Request('http://example.com/a'), UA)).toBe(true);
    expect(log.textLines()).toEqual([
      'WARNING [seine.robotstxt] Failure while parsing robots.txt. File either contains garbage or is in an encoding other than UTF-8, treating it as an empty file.',
    ]);
  });

  it('answers allowedNow only once the origin is settled', async () => {
    let release: () => void = () => undefined;
    const { cache } = setup((request) => new Promise<Response>((resolve) => {
      release = () => resolve(new Response({ url: request.url, body: 'User-agent: *\nDisallow: /no\n', request }));
    }));
    const request = new Request('http://example.com/no');
    expect(cache.allowedNow(request, UA)).toBeUndefined();
    const pending = cache.allowed(request, UA);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cache.allowedNow(request, UA)).toBeUndefined();
    release();
    expect(await pending).toBe(false);
    expect(cache.allowedNow(request, UA)).toBe(false);
    expect(cache.allowedNow(new Request('http://example.com/yes'), UA)).toBe(true);
  });

  it('allows URLs that are not http(s) without fetching anything', async () => {
    const { cache, stats } = setup(() => Promise.reject(new Error('should not be called')));
    expect(await cache.allowed(new Request('data:text/plain,hi'), UA)).toBe(true);
    expect(await cache.allowed(new Request('file:///etc/hosts'), UA)).toBe(true);
    expect(cache.allowedNow(new Request('ftp://example.com/x'), UA)).toBe(true);
    expect(stats.getAll()).toEqual({});
  });

  it('counts a download function that throws synchronously as a failed download', async () => {
    const { cache, log } = setup(() => {
      throw new RangeError('bad');
    });
    expect(await cache.allowed(new Request('http://example.com/a'), UA)).toBe(true);
    expect(log.textLines()).toEqual(['ERROR [seine.downloadermiddlewares.robotstxt] Error downloading <GET http://example.com/robots.txt>: bad']);
  });
});

describe('originOf', () => {
  it('gives scheme://host[:port] for http(s) and null otherwise', () => {
    expect(originOf('HTTP://Example.COM:80/a')).toBe('http://example.com');
    expect(originOf('https://example.com:8443/a')).toBe('https://example.com:8443');
    expect(originOf('data:,x')).toBeNull();
    expect(originOf('file:///x')).toBeNull();
  });
});
