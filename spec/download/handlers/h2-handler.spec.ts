/**
 * H2DownloadHandler against a local HTTP/2-only server (node:http2, a
 * self-signed certificate, allowHTTP1: false), which an HTTP/1.1 client
 * cannot read.
 */
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Request, Spider, type Response } from '../../../src/index.js';
import { runCrawl } from '../../helpers/site-server.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));

let server: http2.Http2SecureServer;
let base: string;
const sessions = new Set<http2.ServerHttp2Session>();
const sockets = new Set<TLSSocket>();
const seen: Array<{ path: string; version: string; cookie: string | undefined }> = [];
beforeAll(async () => {
  server = http2.createSecureServer({ key: fixture('localhost-key.pem'), cert: fixture('localhost-cert.pem'), allowHTTP1: false }, (req, res) => {
    seen.push({ path: req.url, version: req.httpVersion, cookie: req.headers.cookie });
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'h2=yes; Path=/' });
    res.end(`<html><body><h1>${req.url} over ${req.httpVersion}</h1></body></html>`);
  });
  server.on('session', (session) => sessions.add(session));
  server.on('secureConnection', (socket: TLSSocket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const session of sessions) session.destroy();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function spiderFor(paths: string[]) {
  return class H2Spider extends Spider {
    static override name = 'h2';
    override async *start() {
      for (const path of paths) yield new Request(`${base}${path}`);
    }
    override parse(response: Response) {
      return [{ h1: response.css('h1::text').get(), protocol: response.protocol, status: response.status }];
    }
  };
}

describe('H2DownloadHandler', () => {
  it("downloads from an HTTP/2-only server, response.protocol 'HTTP/2.0', cookies kept across requests", async () => {
    seen.length = 0;
    const { items } = await runCrawl(spiderFor(['/a', '/b']), { DOWNLOAD_HANDLERS: { https: 'H2DownloadHandler' }, CONCURRENT_REQUESTS: 1 });
    expect(items).toEqual([
      { h1: '/a over 2.0', protocol: 'HTTP/2.0', status: 200 },
      { h1: '/b over 2.0', protocol: 'HTTP/2.0', status: 200 },
    ]);
    expect(seen.map((hit) => hit.cookie)).toEqual([undefined, 'h2=yes']);
  });

  it("takes Scrapy's import path for it", async () => {
    const { items } = await runCrawl(spiderFor(['/c']), { DOWNLOAD_HANDLERS: { https: 'scrapy.core.downloader.handlers.http2.H2DownloadHandler' } });
    expect(items).toEqual([{ h1: '/c over 2.0', protocol: 'HTTP/2.0', status: 200 }]);
  });

  it('is needed: through the HTTP/1.1 handler that server never sees the request', async () => {
    const { items, stats } = await runCrawl(spiderFor(['/d']), { RETRY_ENABLED: false });
    // node:http2's answer to a client that did not offer h2 by ALPN.
    expect(items).toEqual([]);
    expect(stats['downloader/response_status_count/403']).toBe(1);
    expect(seen.some((hit) => hit.path === '/d')).toBe(false);
  });

  it('sends a proxied request over HTTP/1.1, with one WARNING for the crawl', async () => {
    // A proxy that refuses at once: what matters is the warning and that the proxy was used.
    const { logs } = await runCrawl(
      class ProxiedSpider extends spiderFor(['/e', '/f']) {
        static override name = 'proxied';
        override async *start() {
          for (const path of ['/e', '/f']) yield new Request(`${base}${path}`, { meta: { proxy: 'http://127.0.0.1:9' } });
        }
      },
      { DOWNLOAD_HANDLERS: { https: 'H2DownloadHandler' }, RETRY_ENABLED: false },
    );
    const warnings = logs.filter((event) => event.level === 'WARNING' && event.message.startsWith('H2DownloadHandler'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/goes through a proxy, so over HTTP\/1\.1, not HTTP\/2/);
  });
});
