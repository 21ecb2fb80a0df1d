/**
 * fetchOnce and crawlerStartingWith (src/shell/fetch-once.ts) in-process,
 * against a server on 127.0.0.1: the response and the request that made
 * it, the spider's settings and start hooks, and the failures.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { LogBus } from '../../src/log/index.js';
import { Request } from '../../src/http/request.js';
import { Spider } from '../../src/contracts/spider.js';
import type { SpiderMiddleware, SpiderOutput } from '../../src/contracts/components.js';
import { fetchOnce, NoResponseError } from '../../src/shell/fetch-once.js';
import { shellRequest } from '../../src/shell/shell-request.js';
import { DefaultSpider } from '../../src/shell/default-spider.js';
import { startSite, type TestSite } from '../helpers/site-server.js';

const QUIET = { TELNETCONSOLE_ENABLED: false, LOG_LEVEL: 'DEBUG' };

class AgentSpider extends Spider {
  static override name = 'agent';
  static override customSettings = { USER_AGENT: 'agent-spider' };

  override async *start(): AsyncIterable<Request> {
    yield new Request('http://127.0.0.1:1/never');
  }
}

/** Tags every start request, to show that the given requests pass processStart. */
class TagStart implements SpiderMiddleware {
  async *processStart(start: AsyncIterable<SpiderOutput>): AsyncIterable<SpiderOutput> {
    for await (const output of start) {
      if (output instanceof Request) output.headers.set('X-Start', 'tagged');
      yield output;
    }
  }
}

let site: TestSite;

beforeAll(async () => {
  site = await startSite({
    '/page': '<p>page</p>',
    '/old': (_req, res) => res.writeHead(302, { Location: '/page' }).end('moved'),
    '/missing': (_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<p>missing</p>'),
    '/robots.txt': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n'),
  });
});

beforeEach(() => site.reset());

afterAll(() => site.close());

describe('fetchOnce', () => {
  it("returns the response and the request that produced it, headers as sent; the spider's own start() does not run", async () => {
    const bus = new LogBus();
    const lines: string[] = [];
    bus.events$.subscribe((event) => lines.push(event.message));
    const fetched = await fetchOnce(shellRequest(site.url('/old')), {
      spiderClass: AgentSpider,
      settings: { ...QUIET, SPIDER_MIDDLEWARES: new Map([[TagStart, 500]]) },
      logBus: bus,
    });
    expect(fetched.response.status).toBe(200);
    expect(fetched.response.url).toBe(site.url('/page'));
    expect(fetched.response.text).toBe('<p>page</p>');
    expect(fetched.request.url).toBe(site.url('/page'));
    expect(fetched.request.headers.get('User-Agent')).toBe('agent-spider');
    expect(site.requests.map((hit) => [hit.path, hit.headers['user-agent'], hit.headers['x-start']])).toEqual([
      ['/old', 'agent-spider', 'tagged'],
      ['/page', 'agent-spider', 'tagged'],
    ]);
    expect(lines).toContain(`Crawled (200) <GET ${site.url('/page')}> (referer: None)`);
    expect(lines.filter((line) => line.includes('/never'))).toEqual([]);
  });

  it('keeps an error status, and a redirect with redirect: false', async () => {
    const options = { spiderClass: DefaultSpider, settings: QUIET, logBus: new LogBus() };
    expect((await fetchOnce(shellRequest(site.url('/missing')), options)).response.status).toBe(404);
    const redirect = await fetchOnce(shellRequest(site.url('/old'), { redirect: false }), options);
    expect([redirect.response.status, redirect.response.headers.get('location')]).toEqual([302, '/page']);
  });

  it("throws the download's own error for a failed download", async () => {
    const options = { spiderClass: DefaultSpider, settings: { ...QUIET, RETRY_ENABLED: false }, logBus: new LogBus() };
    await expect(fetchOnce(shellRequest('http://no-such-host.invalid/'), options)).rejects.toMatchObject({
      code: 'SEINE_DNS_LOOKUP_FAILED',
      message: "DNS lookup failed: address 'no-such-host.invalid' not found",
    });
  });

  it('throws NoResponseError, saying why, for a request that was dropped', async () => {
    const options = { spiderClass: DefaultSpider, settings: { ...QUIET, ROBOTSTXT_OBEY: true }, logBus: new LogBus() };
    const error = await fetchOnce(shellRequest(site.url('/private')), options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoResponseError);
    expect((error as Error).message).toBe(`No response downloaded for: ${site.url('/private')} (Forbidden by robots.txt)`);
  });
});
