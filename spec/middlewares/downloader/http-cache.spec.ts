import { describe, expect, it } from '@jest/globals';
import { IgnoreRequest, NotConfigured } from '../../../src/contracts/control-flow.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { HttpCacheMiddleware } from '../../../src/middlewares/downloader/http-cache.js';
import type { HttpCachePolicy, HttpCachePolicyClass, HttpCacheStorage } from '../../../src/middlewares/downloader/http-cache-interfaces.js';
import { DummyPolicy } from '../../../src/middlewares/downloader/http-cache-dummy-policy.js';
import { FilesystemCacheStorage } from '../../../src/middlewares/downloader/http-cache-filesystem-storage.js';
import { RFC2616Policy } from '../../../src/middlewares/downloader/http-cache-rfc2616-policy.js';
import { ConnectionRefusedError, MaxSizeError } from '../../../src/download/download-errors.js';
import { Settings } from '../../../src/settings/settings.js';
import { SettingsError } from '../../../src/settings/settings-error.js';
import type { Spider } from '../../../src/contracts/spider.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

const URL = 'http://127.0.0.1:8000/page';

/** A storage in memory, recording what happens to it. */
class MemoryStorage implements HttpCacheStorage {
  readonly entries = new Map<string, Response>();
  readonly calls: string[] = [];
  openSpider(spider: Spider): void {
    this.calls.push(`open ${spider.name}`);
  }
  closeSpider(spider: Spider): void {
    this.calls.push(`close ${spider.name}`);
  }
  retrieveResponse(_spider: Spider, request: Request): Response | null {
    const stored = this.entries.get(request.url);
    return stored === undefined ? null : stored.replace({ request });
  }
  storeResponse(_spider: Spider, request: Request, response: Response): void {
    this.calls.push(`store ${request.url}`);
    this.entries.set(request.url, response);
  }
}

/** A policy built with `new Policy(settings)`, as Scrapy builds one. */
class SettingsPolicy implements HttpCachePolicy {
  readonly botName: string;
  constructor(settings: Settings) {
    this.botName = settings.get('BOT_NAME');
  }
  shouldCacheRequest(): boolean {
    return true;
  }
  shouldCacheResponse(): boolean {
    return true;
  }
  isCachedResponseFresh(): boolean {
    return true;
  }
  isCachedResponseValid(): boolean {
    return true;
  }
}

function setup(storage = new MemoryStorage(), options: { ignoreMissing?: boolean; policy?: HttpCachePolicy } = {}) {
  const crawler = fakeCrawler();
  const mw = new HttpCacheMiddleware({ storage, stats: crawler.stats, now: () => 784111777_000, ...options });
  return { crawler, mw, storage, spider: crawler.spider };
}

describe('HttpCacheMiddleware.fromCrawler', () => {
  it('is off unless HTTPCACHE_ENABLED', () => {
    expect(() => HttpCacheMiddleware.fromCrawler(fakeCrawler())).toThrow(NotConfigured);
  });

  it('builds DummyPolicy and FilesystemCacheStorage by default, and reads HTTPCACHE_IGNORE_MISSING', () => {
    const mw = HttpCacheMiddleware.fromCrawler(fakeCrawler({ HTTPCACHE_ENABLED: true, HTTPCACHE_IGNORE_MISSING: 'true', HTTPCACHE_DIR: '/tmp/seine-cache' }));
    expect([mw.policy, mw.storage, mw.ignoreMissing]).toEqual([expect.any(DummyPolicy), expect.any(FilesystemCacheStorage), true]);
    expect((mw.storage as FilesystemCacheStorage).dir).toBe('/tmp/seine-cache');
  });

  it("takes a built-in's name, also as Scrapy's import path, or a class (fromCrawler, else new Class(settings))", () => {
    const policyOf = (value: string | HttpCachePolicyClass) => HttpCacheMiddleware.fromCrawler(fakeCrawler({ HTTPCACHE_ENABLED: true, HTTPCACHE_POLICY: value, BOT_NAME: 'mybot' })).policy;
    expect(policyOf('RFC2616Policy')).toBeInstanceOf(RFC2616Policy);
    expect(policyOf('scrapy.extensions.httpcache.RFC2616Policy')).toBeInstanceOf(RFC2616Policy);
    expect(policyOf(RFC2616Policy)).toBeInstanceOf(RFC2616Policy);
    expect((policyOf(SettingsPolicy) as SettingsPolicy).botName).toBe('mybot');
    const storage = HttpCacheMiddleware.fromCrawler(fakeCrawler({ HTTPCACHE_ENABLED: true, HTTPCACHE_STORAGE: MemoryStorage })).storage;
    expect(storage).toBeInstanceOf(MemoryStorage);
  });

  it('names the setting, the value and the choices when a name is unknown', () => {
    const build = (name: string, value: string) => () => HttpCacheMiddleware.fromCrawler(fakeCrawler({ HTTPCACHE_ENABLED: true, [name]: value }));
    expect(build('HTTPCACHE_POLICY', 'Rfc2616')).toThrow(new SettingsError(
      `Setting HTTPCACHE_POLICY is "Rfc2616" (from -s HTTPCACHE_POLICY=Rfc2616), which seine does not know: use 'DummyPolicy' or 'RFC2616Policy', or give a class of your own`,
    ));
    expect(build('HTTPCACHE_STORAGE', 'DbmCacheStorage')).toThrow(new SettingsError(
      `Setting HTTPCACHE_STORAGE is "DbmCacheStorage" (from -s HTTPCACHE_STORAGE=DbmCacheStorage), which seine does not know: use 'FilesystemCacheStorage', or give a class of your own`,
    ));
  });

  it('refuses a value that is neither a name nor a class', () => {
    expect(() => new Settings({ HTTPCACHE_POLICY: 42 as unknown as string }).get('HTTPCACHE_POLICY')).toThrow(
      new SettingsError("Setting HTTPCACHE_POLICY expects a name or a class, got 42 (from the project's settings)"),
    );
  });
});

describe('HttpCacheMiddleware around a download', () => {
  it('opens and closes the storage with the spider', async () => {
    const { mw, storage, spider } = setup();
    await mw.openSpider(spider);
    await mw.closeSpider(spider);
    expect(storage.calls).toEqual(['open test', 'close test']);
  });

  it('stores a first-hand response, dated now when the server sent no Date, then answers from the cache with the cached flag', async () => {
    const { crawler, mw, storage, spider } = setup();
    const request = new Request(URL);
    expect(await mw.processRequest(request, spider)).toBeNull();
    const response = new Response({ url: URL, body: 'hello', request });
    expect(await mw.processResponse(request, response, spider)).toBe(response);
    expect(storage.entries.get(URL)?.headers.get('Date')).toBe('Sun, 06 Nov 1994 08:49:37 GMT');

    const again = new Request(URL);
    const cached = await mw.processRequest(again, spider);
    expect([cached?.text, cached?.flags, cached?.request]).toEqual(['hello', ['cached'], again]);
    // The cached response passes back through processResponse untouched and is not stored again.
    expect(await mw.processResponse(again, cached!, spider)).toBe(cached);
    expect(storage.calls).toEqual([`store ${URL}`]);
    expect(crawler.stats.getAll()).toEqual({ 'httpcache/miss': 1, 'httpcache/firsthand': 1, 'httpcache/store': 1, 'httpcache/hit': 1 });
  });

  it('keeps the Date header a server sent', async () => {
    const { mw, storage, spider } = setup();
    const request = new Request(URL);
    await mw.processRequest(request, spider);
    await mw.processResponse(request, new Response({ url: URL, headers: { Date: 'Mon, 01 Jan 2024 00:00:00 GMT' }, request }), spider);
    expect(storage.entries.get(URL)?.headers.getList('Date')).toEqual(['Mon, 01 Jan 2024 00:00:00 GMT']);
  });

  it('throws IgnoreRequest for a request not in the cache with ignoreMissing', async () => {
    const { crawler, mw, spider } = setup(new MemoryStorage(), { ignoreMissing: true });
    await expect(mw.processRequest(new Request(URL), spider)).rejects.toThrow(new IgnoreRequest(`Ignored request not in cache: <GET ${URL}>`));
    expect(crawler.stats.getAll()).toEqual({ 'httpcache/miss': 1, 'httpcache/ignore': 1 });
  });

  it('leaves uncacheable requests alone both ways, and clears its mark from meta', async () => {
    const { crawler, mw, storage, spider } = setup();
    const request = new Request('file:///tmp/page.html');
    expect(await mw.processRequest(request, spider)).toBeNull();
    await mw.processResponse(request, new Response({ url: request.url, request }), spider);
    expect([storage.calls, crawler.stats.getAll(), Object.keys(request.meta)]).toEqual([[], {}, []]);
  });

  it('recovers a stale cached response from a network failure only', async () => {
    const storage = new MemoryStorage();
    const { crawler, mw, spider } = setup(storage, { policy: new RFC2616Policy({ now: () => 784111777_000 }) });
    storage.entries.set(URL, new Response({ url: URL, headers: { ETag: '"a"' }, body: 'old' }));
    const request = new Request(URL);
    expect(await mw.processRequest(request, spider)).toBeNull();
    expect(request.headers.get('If-None-Match')).toBe('"a"');
    expect(mw.processException(request, new MaxSizeError(URL, { size: 20, maxSize: 10, stage: 'received' }))).toBeNull();
    expect(request.meta['cached_response']).toBeUndefined();

    const retry = new Request(URL);
    await mw.processRequest(retry, spider);
    const recovered = mw.processException(retry, new ConnectionRefusedError(URL, '127.0.0.1:8000'));
    expect([recovered?.text, recovered?.flags]).toEqual(['old', ['cached']]);
    expect(crawler.stats.getAll()).toEqual({ 'httpcache/errorrecovery': 1 });
  });
});
