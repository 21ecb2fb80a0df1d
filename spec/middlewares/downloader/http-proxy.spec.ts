import { describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../../src/contracts/control-flow.js';
import { Request } from '../../../src/http/request.js';
import { HttpProxyMiddleware } from '../../../src/middlewares/downloader/http-proxy.js';
import { ProxyUrlError } from '../../../src/middlewares/downloader/proxy-url-error.js';
import { SettingsError } from '../../../src/settings/index.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

const ENV_PROXIES = { http: 'http://user:pass@proxy.test:3128', https: 'proxy2.test:8080' };
const NO_PROXY = '.internal.test, skip.test';

function through(mw: HttpProxyMiddleware, request: Request): [Record<string, unknown>, string | null] {
  mw.processRequest(request);
  return [{ ...request.meta }, request.headers.get('Proxy-Authorization')];
}

// Expected values are Scrapy 2.8's HttpProxyMiddleware with the same environment.
describe('HttpProxyMiddleware: proxies from the environment', () => {
  const mw = new HttpProxyMiddleware({ proxies: ENV_PROXIES, noProxy: NO_PROXY });

  it("uses the proxy of the URL's scheme, moving its credentials to Proxy-Authorization", () => {
    expect(through(mw, new Request('http://a.test/'))).toEqual([
      { proxy: 'http://proxy.test:3128', _auth_proxy: 'http://proxy.test:3128', _scheme_proxy: true },
      'Basic dXNlcjpwYXNz',
    ]);
    expect(through(mw, new Request('https://a.test/'))).toEqual([{ proxy: 'https://proxy2.test:8080', _scheme_proxy: true }, null]);
  });

  it('reaches hosts listed in no_proxy (and their subdomains) directly', () => {
    for (const url of ['http://x.internal.test/', 'http://internal.test/', 'http://skip.test:81/', 'https://deep.a.skip.test/']) {
      expect([url, ...through(mw, new Request(url))]).toEqual([url, {}, null]);
    }
  });

  it('reaches a host:port listed in no_proxy directly, and the same host on another port through the proxy', () => {
    const ported = new HttpProxyMiddleware({ proxies: { http: 'http://p.test:1' }, noProxy: 'local.test:8080' });
    expect(through(ported, new Request('http://local.test:8080/'))).toEqual([{}, null]);
    expect(through(ported, new Request('http://local.test:8081/'))).toEqual([{ proxy: 'http://p.test:1', _scheme_proxy: true }, null]);
  });

  it('uses no proxy for a scheme it has none for', () => {
    expect(through(new HttpProxyMiddleware({ proxies: { https: 'http://p.test:1' }, noProxy: '' }), new Request('http://a.test/'))).toEqual([{}, null]);
  });

  it('bypasses every host with no_proxy=*', () => {
    expect(through(new HttpProxyMiddleware({ proxies: ENV_PROXIES, noProxy: '*' }), new Request('http://a.test/'))).toEqual([{}, null]);
  });

  it('keeps the chosen proxy and its header on a second pass (a retry)', () => {
    const request = new Request('http://a.test/');
    mw.processRequest(request);
    const retry = request.replace({});
    expect(through(mw, retry)).toEqual([
      { proxy: 'http://proxy.test:3128', _auth_proxy: 'http://proxy.test:3128', _scheme_proxy: true },
      'Basic dXNlcjpwYXNz',
    ]);
  });

  it('skips environment values that are not proxy URLs', () => {
    const odd = new HttpProxyMiddleware({ proxies: { http: '/var/run/docker.sock', https: 'http://ok.test:1' }, noProxy: '' });
    expect([odd.proxyFor('http'), odd.proxyFor('https')]).toEqual([null, 'http://ok.test:1']);
  });

  it('reads http_proxy, https_proxy and no_proxy from process.env by default', () => {
    const saved = { ...process.env };
    try {
      for (const key of Object.keys(process.env)) if (key.toLowerCase().endsWith('_proxy')) delete process.env[key];
      process.env.http_proxy = 'http://env.test:1';
      process.env.NO_PROXY = 'a.test';
      const fromEnv = new HttpProxyMiddleware();
      expect([fromEnv.proxyFor('http'), fromEnv.proxyFor('https'), fromEnv.noProxy]).toEqual(['http://env.test:1', null, 'a.test']);
      expect(through(fromEnv, new Request('http://a.test/'))).toEqual([{}, null]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });
});

describe('HttpProxyMiddleware: meta.proxy', () => {
  const mw = new HttpProxyMiddleware({ proxies: ENV_PROXIES, noProxy: '' });

  it('wins over the environment, with percent-decoded credentials', () => {
    expect(through(mw, new Request('http://a.test/', { meta: { proxy: 'https://u%40x:p%3Aw@p.test:1' } }))).toEqual([
      { proxy: 'https://p.test:1', _auth_proxy: 'https://p.test:1' },
      `Basic ${Buffer.from('u@x:p:w').toString('base64')}`,
    ]);
  });

  it('drops the credentials header when the request moves to another proxy', () => {
    const request = new Request('http://a.test/', { meta: { proxy: 'https://u:p@p.test:1' } });
    mw.processRequest(request);
    request.meta.proxy = 'https://other.test:2';
    expect(through(mw, request)).toEqual([{ proxy: 'https://other.test:2' }, null]);
  });

  it('uses no proxy for meta.proxy = null', () => {
    expect(through(mw, new Request('http://a.test/', { meta: { proxy: null } }))).toEqual([{ proxy: null }, null]);
  });

  it("keeps a Proxy-Authorization header the request set for its proxy, drops it when there's no proxy", () => {
    const request = new Request('http://a.test/', { headers: { 'Proxy-Authorization': 'Basic abc' }, meta: { proxy: 'http://p.test:1' } });
    expect(through(mw, request)).toEqual([{ proxy: 'http://p.test:1', _auth_proxy: 'http://p.test:1' }, 'Basic abc']);
    request.meta.proxy = null;
    expect(through(mw, request)).toEqual([{ proxy: null }, null]);
    const direct = new Request('http://a.test/', { headers: { 'Proxy-Authorization': 'Basic abc' }, meta: { proxy: null } });
    expect(through(mw, direct)).toEqual([{ proxy: null }, null]);
  });

  it('takes http for a meta.proxy without scheme, and a user without password', () => {
    expect(through(mw, new Request('http://a.test/', { meta: { proxy: 'u@p.test:1' } }))).toEqual([
      { proxy: 'http://p.test:1', _auth_proxy: 'http://p.test:1' },
      `Basic ${Buffer.from('u:').toString('base64')}`,
    ]);
  });

  it('encodes credentials as latin-1 unless HTTPPROXY_AUTH_ENCODING says otherwise', () => {
    const latin = new HttpProxyMiddleware({ proxies: {}, noProxy: '' });
    const utf8 = new HttpProxyMiddleware({ proxies: {}, noProxy: '', authEncoding: 'utf8' });
    const proxy = 'http://j%C3%BCrgen:pw@p.test:1';
    expect(through(latin, new Request('http://a.test/', { meta: { proxy } }))[1]).toBe(`Basic ${Buffer.from('jürgen:pw', 'latin1').toString('base64')}`);
    expect(through(utf8, new Request('http://a.test/', { meta: { proxy } }))[1]).toBe(`Basic ${Buffer.from('jürgen:pw', 'utf8').toString('base64')}`);
  });

  it('rejects a meta.proxy without host with a clear message', () => {
    expect(() => mw.processRequest(new Request('http://a.test/', { meta: { proxy: 'http:/nohost' } }))).toThrow(
      new ProxyUrlError('http:/nohost'),
    );
  });
});

describe('HttpProxyMiddleware.fromCrawler', () => {
  it('is switched off by HTTPPROXY_ENABLED=false', () => {
    expect(() => HttpProxyMiddleware.fromCrawler(fakeCrawler({ HTTPPROXY_ENABLED: false }))).toThrow(NotConfigured);
  });

  it("reads HTTPPROXY_AUTH_ENCODING in Python's spelling", () => {
    expect(HttpProxyMiddleware.fromCrawler(fakeCrawler()).authEncoding).toBe('latin1');
    expect(HttpProxyMiddleware.fromCrawler(fakeCrawler({ HTTPPROXY_AUTH_ENCODING: 'latin-1' })).authEncoding).toBe('latin1');
    expect(HttpProxyMiddleware.fromCrawler(fakeCrawler({ HTTPPROXY_AUTH_ENCODING: 'UTF-8' })).authEncoding).toBe('utf8');
    expect(() => HttpProxyMiddleware.fromCrawler(fakeCrawler({ HTTPPROXY_AUTH_ENCODING: 'cp1251' }))).toThrow(
      new SettingsError("Setting HTTPPROXY_AUTH_ENCODING expects latin-1, utf-8 or ascii, got 'cp1251'"),
    );
  });
});
