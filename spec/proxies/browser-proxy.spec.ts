/**
 * Pages rendered in Debian's Chromium through a proxy that wants a password
 * (tinyproxy with BasicAuth): the credentials of `meta.proxy` or of a
 * PROXY_LIST entry reach Chromium as the context's proxy username and
 * password (HttpProxyMiddleware's Proxy-Authorization header never does),
 * so the page renders, through the proxy, and the password is in no log
 * line or stat.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Request, Spider, type Response } from '../../src/index.js';
import { JS_QUOTES, startJsSite, type JsSite } from '../helpers/js-site.js';
import { runCrawl } from '../helpers/site-server.js';
import { startTinyproxy, type TinyProxy } from '../helpers/tinyproxy.js';

const TIMEOUT = 90_000;
const PASSWORD = 'Br0wser-pw-42';

class RenderedSpider extends Spider {
  static override name = 'rendered-proxy';
  declare base: string;
  declare proxy?: string;
  override async *start() {
    const meta = this.proxy === undefined ? { playwright: true } : { playwright: true, proxy: this.proxy };
    yield new Request(`${this.base}/quotes/1`, { meta });
  }
  override *parse(response: Response) {
    yield { url: response.url, status: response.status, quotes: response.css('div.quote span.text::text').getall() };
  }
}

let site: JsSite;
let tiny: TinyProxy;
beforeAll(async () => {
  site = await startJsSite();
  tiny = await startTinyproxy({ user: 'bruno', password: PASSWORD });
}, TIMEOUT);
afterAll(async () => {
  await Promise.all([site?.close(), tiny?.stop()]);
});

/** The page's requests tinyproxy logged ("Request (file descriptor N): GET http://…/quotes/1 HTTP/1.1"). */
const proxied = (path: string): number => tiny.output().split('\n').filter((line) => line.includes('Request (file descriptor') && line.includes(`${path} HTTP/`)).length;

describe('rendered pages through an authenticating proxy', () => {
  const expected = JS_QUOTES[1]!.map(([text]) => text);

  it('renders a page whose meta.proxy has user:pass@', async () => {
    const before = proxied('/quotes/1');
    const result = await runCrawl(RenderedSpider, { PLAYWRIGHT_ABORT_REQUEST: null, LOG_LEVEL: 'DEBUG' }, { base: site.url(''), proxy: tiny.url });
    expect(result.items.map((item) => [item['status'], item['quotes']])).toEqual([[200, expected]]);
    // Chromium asks once without credentials (407), then with them: tinyproxy logs both.
    expect(proxied('/quotes/1')).toBeGreaterThan(before);
    expect(JSON.stringify([result.logs, result.stats])).not.toContain(PASSWORD);
  }, TIMEOUT);

  it('renders a page sent through PROXY_LIST', async () => {
    const before = proxied('/quotes/1');
    const result = await runCrawl(RenderedSpider, { PLAYWRIGHT_ABORT_REQUEST: null, PROXY_LIST: [tiny.url], LOG_LEVEL: 'DEBUG' }, { base: site.url('') });
    expect(result.items.map((item) => [item['status'], item['quotes']])).toEqual([[200, expected]]);
    // Chromium asks once without credentials (407), then with them: tinyproxy logs both.
    expect(proxied('/quotes/1')).toBeGreaterThan(before);
    expect(result.stats[`proxies/127.0.0.1:${tiny.port}/requests`]).toBe(1);
    expect(JSON.stringify([result.logs, result.stats])).not.toContain(PASSWORD);
  }, TIMEOUT);
});
