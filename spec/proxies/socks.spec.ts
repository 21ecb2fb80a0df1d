/**
 * SOCKS5 proxies in the HTTP download handler, through a real dante-server
 * (danted) that asks for SOCKS5's username/password method: http:// and
 * https:// URLs, as `meta.proxy` and as PROXY_LIST entries.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import type { Response } from '../../src/http/response.js';
import { Spider } from '../../src/contracts/spider.js';
import { runCrawl } from '../helpers/site-server.js';
import { startDante, type Dante } from '../helpers/dante.js';
import { startHttpServer, startHttpsServer, type LocalServer } from '../download/local-server.js';

const TIMEOUT = 30_000;
const PASSWORD = 'Sx9-socks-pw';

class UrlsSpider extends Spider {
  static override name = 'socks';
  declare urls?: string;
  declare proxy?: string;

  override async *start() {
    for (const url of (this.urls ?? '').split(',')) {
      yield new Request(url, { callback: this.parse, ...(this.proxy === undefined ? {} : { meta: { proxy: this.proxy } }) });
    }
  }

  override *parse(response: Response) {
    yield { url: response.url, status: response.status, body: response.text };
  }
}

let dante: Dante;
let plain: LocalServer;
let secure: LocalServer;
// What the origins saw: the Proxy-Authorization header must never reach them.
const seen: Array<string | null> = [];

beforeAll(async () => {
  dante = await startDante({ user: 'seinesocks', password: PASSWORD });
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void => {
    seen.push(req.headers['proxy-authorization'] ?? null);
    res.end(`hello ${req.url} from ${req.socket.remoteAddress}`);
  };
  plain = await startHttpServer(handler);
  secure = await startHttpsServer(handler);
}, TIMEOUT);

afterAll(async () => {
  await Promise.all([dante?.stop(), plain?.close(), secure?.close()]);
});

describe('SOCKS5 proxies', () => {
  it('fetches http:// and https:// URLs through danted with username/password, credentials never sent to the origin', async () => {
    const urls = [`${plain.url}/a`, `${secure.url}/b`].join(',');
    const result = await runCrawl(UrlsSpider, {}, { urls, proxy: dante.url });
    const bodies = result.items.map((item) => item['body']).sort();
    expect(bodies).toEqual(['hello /a from 127.0.0.1', 'hello /b from 127.0.0.1']);
    expect(seen.every((header) => header === null)).toBe(true);
    // danted logs each connection it passed: both went through it.
    expect(dante.output().match(/pass\(1\): tcp\/connect/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  }, TIMEOUT);

  it('resolves the name at the proxy for socks5h://', async () => {
    const url = dante.url.replace('socks5://', 'socks5h://');
    const result = await runCrawl(UrlsSpider, {}, { urls: `http://localhost:${plain.port}/h`, proxy: url });
    expect(result.items.map((item) => item['body'])).toEqual(['hello /h from 127.0.0.1']);
  }, TIMEOUT);

  it('fails a wrong password as a proxy failure that names the proxy and not the password', async () => {
    const wrong = dante.url.replace(PASSWORD, 'not-the-password');
    const result = await runCrawl(UrlsSpider, { RETRY_ENABLED: false }, { urls: `${plain.url}/x`, proxy: wrong });
    expect(result.items).toEqual([]);
    const error = result.lines.find((line) => line.includes('Error downloading') || line.includes('CONNECT tunnel'));
    expect(error).toContain(`127.0.0.1:${dante.port}`);
    const everything = JSON.stringify([result.logs, result.stats]);
    expect(everything).not.toContain('not-the-password');
    expect(everything).not.toContain(PASSWORD);
  }, TIMEOUT);

  it('sends PROXY_LIST socks5 entries through the pool', async () => {
    const result = await runCrawl(UrlsSpider, { PROXY_LIST: [dante.url] }, { urls: `${plain.url}/p1,${secure.url}/p2` });
    expect(result.items.length).toBe(2);
    expect(result.stats[`proxies/127.0.0.1:${dante.port}/requests`]).toBe(2);
    expect(JSON.stringify([result.logs, result.stats])).not.toContain(PASSWORD);
  }, TIMEOUT);
});
