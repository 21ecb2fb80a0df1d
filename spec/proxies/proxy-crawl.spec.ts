/**
 * PROXY_LIST and PROXY_TIERS in real crawls: an origin on 127.0.0.1, real
 * tinyproxy proxies (Basic auth, CONNECT) and small Node forward proxies that
 * can be told to ban (answer 403 themselves) or that are not there at all (a
 * closed port).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Request } from '../../src/http/request.js';
import type { Response } from '../../src/http/response.js';
import { Spider } from '../../src/contracts/spider.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';
import { startTinyproxy, type TinyProxy } from '../helpers/tinyproxy.js';
import { closedPort, startHttpsServer, type LocalServer } from '../download/local-server.js';

const TIMEOUT = 60_000;
const PASSWORD = 'Tp-9xq-secret';

/** A forward proxy for http:// URLs that marks what it forwards with `x-via: <name>`, or bans (403) while `banning`. */
interface NodeProxy {
  name: string;
  url: string;
  port: number;
  hits: number;
  banning: boolean;
  close(): Promise<void>;
}

async function nodeProxy(name: string): Promise<NodeProxy> {
  const server = http.createServer((req, res) => {
    proxy.hits += 1;
    if (proxy.banning) {
      res.writeHead(403).end('banned');
      return;
    }
    const target = new URL(req.url!);
    const upstream = http.request(target, { method: req.method, headers: { ...req.headers, 'x-via': name } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: NodeProxy = {
    name, port, url: `http://127.0.0.1:${port}`, hits: 0, banning: false,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return proxy;
}

class PagesSpider extends Spider {
  static override name = 'pages';
  declare urls?: string;

  override async *start() {
    for (const url of (this.urls ?? '').split(',')) yield new Request(url, { callback: this.parse });
  }

  override *parse(response: Response): Generator<Record<string, unknown>> {
    yield { url: response.url, status: response.status, via: response.text };
  }
}

let site: TestSite;
const proxies: NodeProxy[] = [];

beforeAll(async () => {
  site = await startSite({
    // Answers with the proxy that carried the request ('direct' without one).
    '/page': (req, res) => res.end(String(req.headers['x-via'] ?? 'direct')),
    // Blocks everything but the 'res' (residential) proxy, as a site that bans datacenter ranges.
    '/guarded': (req, res) => {
      if (req.headers['x-via'] === 'res') res.end('res');
      else res.writeHead(403).end('go away');
    },
  });
}, TIMEOUT);

afterAll(async () => {
  await site?.close();
});

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function started(...names: string[]): Promise<NodeProxy[]> {
  const made = await Promise.all(names.map((name) => nodeProxy(name)));
  proxies.push(...made);
  return made;
}

const pages = (path: string, n: number): string => Array.from({ length: n }, (_, i) => site.url(`${path}?n=${i}`)).join(',');
const label = (proxy: { port: number }): string => `127.0.0.1:${proxy.port}`;

describe('PROXY_LIST in a crawl', () => {
  it('round-robin spreads requests evenly over the proxies', async () => {
    const [a, b, c] = await started('a', 'b', 'c');
    const result = await runCrawl(PagesSpider, { PROXY_LIST: [a!.url, b!.url, c!.url], CONCURRENT_REQUESTS: 3 }, { urls: pages('/page', 9) });
    expect(result.items.map((item) => item['via']).sort()).toEqual(['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c']);
    expect([a!.hits, b!.hits, c!.hits]).toEqual([3, 3, 3]);
    for (const proxy of [a!, b!, c!]) expect(result.stats[`proxies/${label(proxy)}/requests`]).toBe(3);
  }, TIMEOUT);

  it('per-domain keeps each domain on one proxy', async () => {
    const [a, b] = await started('a', 'b');
    // Two domains for one server: 127.0.0.1 and localhost.
    const other = site.url('/page').replace('127.0.0.1', 'localhost');
    const urls = [...pages('/page', 4).split(','), ...Array.from({ length: 4 }, (_, i) => `${other}?m=${i}`)].join(',');
    const result = await runCrawl(PagesSpider, { PROXY_LIST: [a!.url, b!.url], PROXY_ROTATION: 'per-domain', CONCURRENT_REQUESTS: 1 }, { urls });
    const byHost = new Map<string, Set<unknown>>();
    for (const item of result.items) {
      const host = new URL(String(item['url'])).hostname;
      byHost.set(host, (byHost.get(host) ?? new Set()).add(item['via']));
    }
    expect([...byHost.values()].map((vias) => vias.size)).toEqual([1, 1]);
    expect(new Set([...byHost.values()].map((vias) => [...vias][0])).size).toBe(2);
  }, TIMEOUT);

  it('rests a dead proxy (a closed port), sends its requests through the others, and tries it again after the rest', async () => {
    const [a, b] = await started('a', 'b');
    const dead = await closedPort();
    const result = await runCrawl(
      PagesSpider,
      { PROXY_LIST: [`http://127.0.0.1:${dead}`, a!.url, b!.url], PROXY_BACKOFF_BASE: 0.3, PROXY_BACKOFF_CAP: 0.3, CONCURRENT_REQUESTS: 1, DOWNLOAD_DELAY: 0.1, RANDOMIZE_DOWNLOAD_DELAY: false },
      { urls: pages('/page', 12) },
    );
    expect(result.items).toHaveLength(12);
    expect(result.items.every((item) => item['via'] === 'a' || item['via'] === 'b')).toBe(true);
    const deadStats = (name: string): unknown => result.stats[`proxies/127.0.0.1:${dead}/${name}`];
    // 12 requests over ≥1.1 s with a 0.3 s rest: the dead proxy is tried again after each rest, and fails again.
    expect(deadStats('requests')).toBeGreaterThanOrEqual(2);
    expect(deadStats('failed')).toBe(deadStats('requests'));
    expect(deadStats('rested')).toBe(deadStats('requests'));
    expect(result.stats['proxies/retry_count']).toBe(deadStats('requests'));
    expect(result.stats['downloader/exception_count']).toBe(deadStats('requests'));
  }, TIMEOUT);

  it('retries a banned response through another proxy, so the callback never sees it', async () => {
    const [a, b] = await started('a', 'b');
    a!.banning = true;
    const result = await runCrawl(PagesSpider, { PROXY_LIST: [a!.url, b!.url], CONCURRENT_REQUESTS: 1 }, { urls: pages('/page', 4) });
    expect(result.items.map((item) => [item['status'], item['via']])).toEqual([[200, 'b'], [200, 'b'], [200, 'b'], [200, 'b']]);
    expect(a!.hits).toBe(1);
    expect(result.stats[`proxies/${label(a!)}/banned`]).toBe(1);
    expect(result.stats[`proxies/${label(a!)}/rested`]).toBe(1);
    expect(result.stats[`proxies/${label(b!)}/requests`]).toBe(4);
  }, TIMEOUT);

  it('passes a block page on when every proxy has had its try', async () => {
    const [a] = await started('a');
    a!.banning = true;
    const result = await runCrawl(PagesSpider, { PROXY_LIST: [a!.url], PROXY_BACKOFF_BASE: 0.2, HTTPERROR_ALLOW_ALL: true }, { urls: pages('/page', 1) });
    // One proxy: one retry through it after its rest, then the 403 reaches the spider.
    expect(result.items.map((item) => item['status'])).toEqual([403]);
    expect(a!.hits).toBe(2);
    expect(result.stats['proxies/retry_count']).toBe(1);
    expect(result.stats['proxies/retry_count_exceeded']).toBe(1);
  }, TIMEOUT);

  it('leaves a request with its own meta.proxy alone', async () => {
    const [a, b] = await started('a', 'b');
    class OwnProxySpider extends PagesSpider {
      static override name = 'own-proxy';
      override async *start() {
        yield new Request(site.url('/page'), { callback: this.parse, meta: { proxy: b!.url } });
        yield new Request(site.url('/page?direct'), { callback: this.parse, meta: { proxy: null } });
      }
    }
    const result = await runCrawl(OwnProxySpider, { PROXY_LIST: [a!.url] });
    expect(result.items.map((item) => item['via']).sort()).toEqual(['b', 'direct']);
    expect(a!.hits).toBe(0);
  }, TIMEOUT);
});

describe('PROXY_LIST with sessions', () => {
  it.each(['per-session', 'round-robin'])('gives each session one proxy for its life, and counts its requests (PROXY_ROTATION %s)', async (rotation) => {
    const [a, b, c] = await started('a', 'b', 'c');
    class SessionPagesSpider extends PagesSpider {
      static override name = 'session-pages';
      override *parse(response: Response): Generator<Record<string, unknown>> {
        yield { session: response.meta['session_id'], via: response.text };
      }
    }
    const result = await runCrawl(
      SessionPagesSpider,
      { PROXY_LIST: [a!.url, b!.url, c!.url], PROXY_ROTATION: rotation, SESSIONS_ENABLED: true, SESSIONS_POOL_SIZE: 2, SESSIONS_MAX_USAGE: 100, CONCURRENT_REQUESTS: 2 },
      { urls: pages('/page', 12) },
    );
    expect(result.items).toHaveLength(12);
    const bySession = new Map<unknown, Set<unknown>>();
    for (const item of result.items) bySession.set(item['session'], (bySession.get(item['session']) ?? new Set()).add(item['via']));
    expect([...bySession.values()].every((vias) => vias.size === 1)).toBe(true);
    const counted = [a!, b!, c!].reduce((sum, proxy) => sum + Number(result.stats[`proxies/${label(proxy)}/requests`] ?? 0), 0);
    expect(counted).toBe(12);
  }, TIMEOUT);
});

describe('PROXY_LIST through tinyproxy with Basic auth', () => {
  let tiny: TinyProxy;
  let secure: LocalServer;

  beforeAll(async () => {
    tiny = await startTinyproxy({ user: 'alice', password: PASSWORD });
    secure = await startHttpsServer((req, res) => res.end(`tls ${req.url}`));
  }, TIMEOUT);

  afterAll(async () => {
    await Promise.all([tiny?.stop(), secure?.close()]);
  });

  it('fetches http:// and https:// (CONNECT) pages, and no password reaches a stat or a log line', async () => {
    const result = await runCrawl(PagesSpider, { PROXY_LIST: [tiny.url], LOG_LEVEL: 'DEBUG' }, { urls: `${site.url('/page')},${secure.url}/s` });
    expect(result.items.map((item) => item['via']).sort()).toEqual(['direct', 'tls /s']);
    expect(result.stats[`proxies/127.0.0.1:${tiny.port}/requests`]).toBe(2);
    expect(JSON.stringify([result.logs, result.stats, result.items])).not.toContain(PASSWORD);
  }, TIMEOUT);

  it('counts refused credentials against the proxy, named without the password', async () => {
    const wrong = tiny.url.replace(PASSWORD, 'wrong-pass-77');
    const result = await runCrawl(
      PagesSpider,
      { PROXY_LIST: [wrong], PROXY_BACKOFF_BASE: 0.2, HTTPERROR_ALLOW_ALL: true, RETRY_ENABLED: false, LOG_LEVEL: 'DEBUG' },
      { urls: `${site.url('/page')},${secure.url}/s` },
    );
    // tinyproxy refuses CONNECT (a TunnelError: failed) and answers a plain request with 401 (a blocked status: banned); each is tried twice.
    expect(result.stats[`proxies/127.0.0.1:${tiny.port}/failed`]).toBe(2);
    expect(result.stats[`proxies/127.0.0.1:${tiny.port}/banned`]).toBe(2);
    expect(result.stats['downloader/exception_type_count/TunnelError']).toBe(2);
    expect(result.items.map((item) => item['status'])).toEqual([401]);
    const text = JSON.stringify([result.logs, result.stats]);
    expect(text).not.toContain('wrong-pass-77');
    expect(text).toContain(`127.0.0.1:${tiny.port}`);
  }, TIMEOUT);
});

describe('PROXY_TIERS in a crawl', () => {
  it('escalates a blocked domain to the tier that works, steps down after 10 successes in a row, and goes back up when blocked', async () => {
    const [dc, res] = await started('dc', 'res');
    const result = await runCrawl(
      PagesSpider,
      { PROXY_TIERS: [[], [dc!.url], [res!.url]], PROXY_BACKOFF_BASE: 0.01, PROXY_BACKOFF_CAP: 0.01, CONCURRENT_REQUESTS: 1 },
      { urls: pages('/guarded', 12) },
    );
    expect(result.items.map((item) => item['via'])).toEqual(Array(12).fill('res'));
    // Request 1: direct (403), dc (403), res. Requests 2–10 by res: 10 successes. Request 11: dc (403), res. Request 12: res.
    expect(result.stats['proxies/tier/0/requests']).toBe(1);
    expect(result.stats['proxies/tier/1/requests']).toBe(2);
    expect(result.stats['proxies/tier/2/requests']).toBe(12);
    expect(result.stats[`proxies/${label(dc!)}/banned`]).toBe(2);
    expect(result.lines.filter((line) => line.startsWith('Proxy tier for 127.0.0.1'))).toEqual([
      'Proxy tier for 127.0.0.1: 0 -> 1 (status 403)',
      'Proxy tier for 127.0.0.1: 1 -> 2 (status 403)',
      'Proxy tier for 127.0.0.1: 2 -> 1 (10 successes in a row)',
      'Proxy tier for 127.0.0.1: 1 -> 2 (status 403)',
    ]);
  }, TIMEOUT);
});
