import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Request, Spider, type Response } from '../../src/index.js';
import { runCrawl } from '../helpers/site-server.js';

/** A server that keeps each request's raw header lines as they came on the wire, in order. */
async function rawHeaderServer(): Promise<{ server: Server; url: (path: string) => string; seen: Array<{ path: string; raw: string[] }> }> {
  const seen: Array<{ path: string; raw: string[] }> = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '/', raw: req.rawHeaders });
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body>${req.url}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, seen, url: (path) => `http://127.0.0.1:${port}${path}` };
}

function pairs(raw: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
  return out;
}

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

describe('SESSIONS_BROWSER_HEADERS', () => {
  it("sends each session's browser header set on the wire in the browser's order, its client hints matching its User-Agent; a request's own header wins", async () => {
    const site = await rawHeaderServer();
    server = site.server;
    class HeadersSpider extends Spider {
      static override name = 'headers';
      override async *start() {
        yield new Request(site.url('/a'));
        yield new Request(site.url('/b'), { headers: { 'Accept-Language': 'fr' } });
      }
      override parse(_response: Response) {
        return [];
      }
    }
    await runCrawl(HeadersSpider, { SESSIONS_ENABLED: true, SESSIONS_BROWSER_HEADERS: true, SESSIONS_POOL_SIZE: 1, CONCURRENT_REQUESTS: 1 });
    expect(site.seen.map((hit) => hit.path)).toEqual(['/a', '/b']);
    const [a, b] = site.seen.map((hit) => pairs(hit.raw));
    const headerA = new Map(a);
    const userAgent = headerA.get('user-agent')!;
    expect(userAgent).toMatch(/^Mozilla\/5\.0 .* Chrome\/\d+/);
    const major = /Chrome\/(\d+)/.exec(userAgent)![1];
    // Chrome's client hints name the same major version as its User-Agent.
    expect(headerA.get('sec-ch-ua')).toContain(`v="${major}"`);
    expect(headerA.get('sec-ch-ua-mobile')).toBe('?0');
    expect(headerA.get('sec-fetch-mode')).toBe('navigate');
    expect(headerA.get('accept')).toMatch(/^text\/html,application\/xhtml\+xml/);
    // Only encodings seine decodes.
    expect(headerA.get('accept-encoding')).toBe('gzip, deflate, br');
    expect(headerA.get('accept-language')).toBe('en-US');
    // The order Chrome sends them in, as got put them on the wire.
    const names = a!.map(([name]) => name);
    const order = ['sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform', 'user-agent', 'accept', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'accept-encoding', 'accept-language'];
    const positions = order.map((name) => names.indexOf(name));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    // Same session: the same browser; the request's own Accept-Language kept.
    const headerB = new Map(b);
    expect(headerB.get('user-agent')).toBe(userAgent);
    expect(headerB.get('accept-language')).toBe('fr');
  });
});
