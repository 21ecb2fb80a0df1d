import { describe, expect, it } from '@jest/globals';
import type { DownloaderMiddleware } from '../../../src/contracts/components.js';
import { buildComponents, orderedComponents, type ComponentOrderMap } from '../../../src/crawler/component-list.js';
import { downloadThrough, type DownloadOutcome } from '../../../src/engine/downloader-chain.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { DOWNLOADER_MIDDLEWARES_BASE } from '../../../src/middlewares/downloader/index.js';
import { fakeCrawler, type FakeCrawler } from '../../helpers/fake-crawler.js';

/** A site as a function: what each fetched request got, and the answer. */
function site(handler: (request: Request, attempt: number) => Response) {
  const fetched: Request[] = [];
  const attempts = new Map<string, number>();
  const fetch = async (request: Request): Promise<Response> => {
    fetched.push(request);
    const attempt = (attempts.get(request.url) ?? 0) + 1;
    attempts.set(request.url, attempt);
    return handler(request, attempt);
  };
  return { fetched, fetch };
}

function middlewares(crawler: FakeCrawler): DownloaderMiddleware[] {
  const { settings } = crawler;
  const registry = new Map(Object.entries(DOWNLOADER_MIDDLEWARES_BASE));
  const base = Object.fromEntries(
    Object.entries(settings.getDict('DOWNLOADER_MIDDLEWARES_BASE')).filter(([name]) => registry.has(name)),
  ) as ComponentOrderMap;
  const built = buildComponents(orderedComponents('DOWNLOADER_MIDDLEWARES', base, settings.get('DOWNLOADER_MIDDLEWARES'), registry), crawler);
  for (const mw of built) mw.openSpider?.(crawler.spider);
  return built;
}

/** Downloads `request`, following the Requests the middlewares give back (redirects, retries), as the engine would. */
async function crawlOne(crawler: FakeCrawler, fetch: (request: Request) => Promise<Response>, request: Request): Promise<DownloadOutcome> {
  const mws = middlewares(crawler);
  let outcome = await downloadThrough(mws, request, crawler.spider, fetch);
  for (let hops = 0; outcome.kind === 'request' && hops < 50; hops++) outcome = await downloadThrough(mws, outcome.next, crawler.spider, fetch);
  return outcome;
}

describe('the built-in downloader middlewares together, in their default order', () => {
  it('log in through a redirect that sets a cookie, retry a 503, and count it all', async () => {
    const crawler = fakeCrawler({ USER_AGENT: 'test-bot', RETRY_BACKOFF_BASE: 0 });
    const { fetched, fetch } = site((request, attempt) => {
      const path = new URL(request.url).pathname;
      if (path === '/login') return new Response({ url: request.url, status: 302, headers: { Location: '/home', 'Set-Cookie': 'session=s1; Path=/' }, request });
      if (attempt === 1) return new Response({ url: request.url, status: 503, request });
      const ok = request.headers.get('Cookie') === 'session=s1';
      return new Response({ url: request.url, status: ok ? 200 : 403, body: 'home', request });
    });
    const outcome = await crawlOne(crawler, fetch, new Request('http://127.0.0.1:8000/login', { method: 'POST', body: 'u=me' }));
    expect(outcome.kind).toBe('response');
    const response = (outcome as { response: Response }).response;
    expect([response.status, response.url]).toEqual([200, 'http://127.0.0.1:8000/home']);
    expect(fetched.map((r) => `${r.method} ${r.url} ${r.headers.get('Cookie') ?? '-'}`)).toEqual([
      'POST http://127.0.0.1:8000/login -',
      'GET http://127.0.0.1:8000/home session=s1',
      'GET http://127.0.0.1:8000/home session=s1',
    ]);
    const last = fetched.at(-1)!;
    expect([last.headers.get('User-Agent'), last.headers.get('Accept-Language'), last.meta.download_timeout, last.meta.retry_times, last.meta.redirect_times]).toEqual([
      'test-bot', 'en', 180, 1, 1,
    ]);
    expect(crawler.stats.getAll()).toEqual({
      'downloader/request_count': 3,
      'downloader/request_method_count/POST': 1,
      'downloader/request_method_count/GET': 2,
      'downloader/request_bytes': expect.any(Number),
      'downloader/response_count': 3,
      'downloader/response_status_count/302': 1,
      'downloader/response_status_count/503': 1,
      'downloader/response_status_count/200': 1,
      'downloader/response_bytes': expect.any(Number),
      'retry/count': 1,
      'retry/reason_count/503 Service Unavailable': 1,
    });
    expect(crawler.lines().map(([logger, level, message]) => `${logger} ${level} ${message}`)).toEqual([
      'seine.downloadermiddlewares.redirect DEBUG Redirecting (302) to <GET http://127.0.0.1:8000/home> from <POST http://127.0.0.1:8000/login>',
      'seine.downloadermiddlewares.retry DEBUG Retrying <GET http://127.0.0.1:8000/home> (failed 1 times): 503 Service Unavailable',
    ]);
  });

  it('gives up on a redirect loop with IgnoreRequest after REDIRECT_MAX_TIMES', async () => {
    const crawler = fakeCrawler({ REDIRECT_MAX_TIMES: 4 });
    const { fetched, fetch } = site((request) => new Response({ url: request.url, status: 301, headers: { Location: request.url.endsWith('/a') ? '/b' : '/a' }, request }));
    // dontFilter: without it the loop ends at its first turn (the 'redirect loop' test below).
    const outcome = await crawlOne(crawler, fetch, new Request('http://127.0.0.1:8000/a', { dontFilter: true }));
    expect(outcome.kind).toBe('error');
    expect((outcome as { error: Error }).error.message).toBe('max redirections reached');
    expect(fetched.length).toBe(5);
    expect(crawler.lines().at(-1)).toEqual(['seine.downloadermiddlewares.redirect', 'DEBUG', 'Discarding <GET http://127.0.0.1:8000/a>: max redirections reached']);
  });

  it('ends a redirect loop at its first turn with IgnoreRequest and a WARNING (the duplicate filter would drop it silently)', async () => {
    const crawler = fakeCrawler();
    const { fetched, fetch } = site((request) => new Response({ url: request.url, status: 301, headers: { Location: request.url.endsWith('/a') ? '/b' : '/a' }, request }));
    const outcome = await crawlOne(crawler, fetch, new Request('http://127.0.0.1:8000/a'));
    expect((outcome as { error: Error }).error.message).toBe('redirect loop');
    expect(fetched.length).toBe(2);
    expect(crawler.lines().at(-1)).toEqual(['seine.downloadermiddlewares.redirect', 'WARNING', 'Redirect loop: <GET http://127.0.0.1:8000/a> → <GET http://127.0.0.1:8000/b> → <GET http://127.0.0.1:8000/a> (not followed: <GET http://127.0.0.1:8000/a> was already requested)']);
  });

  it('lets the user disable a built-in by mapping it to null', async () => {
    const crawler = fakeCrawler({ DOWNLOADER_MIDDLEWARES: { UserAgentMiddleware: null } });
    const { fetched, fetch } = site((request) => new Response({ url: request.url, request }));
    await crawlOne(crawler, fetch, new Request('http://127.0.0.1:8000/'));
    expect(fetched[0]!.headers.has('User-Agent')).toBe(false);
    expect(fetched[0]!.headers.get('Accept-Language')).toBe('en');
  });
});
