/**
 * The HTTP cache in real crawls: a spider run twice against a server on
 * 127.0.0.1, with the cache in a temporary folder, as a user re-runs a
 * spider while writing it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fingerprint } from '../../../src/http/fingerprint.js';
import { Request } from '../../../src/http/request.js';
import type { Response } from '../../../src/http/response.js';
import { Spider } from '../../../src/contracts/spider.js';
import { linksPage, runCrawl, startSite, type CrawlResult, type TestSite } from '../../helpers/site-server.js';

class CacheSpider extends Spider {
  static override name = 'cachetest';
  declare urls?: string;
  declare dontCache?: string;

  override async *start() {
    for (const url of (this.urls ?? '').split(',')) yield new Request(url, { callback: this.parse, meta: this.dontCache === undefined ? {} : { dont_cache: true } });
  }

  override *parse(response: Response) {
    yield { url: response.url, status: response.status, title: response.css('title::text').get(), flags: response.flags };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parse);
  }
}

const titled = (title: string, body = '') => `<html><head><title>${title}</title></head><body>${body}</body></html>`;

let site: TestSite;
let dir: string;

beforeAll(async () => {
  site = await startSite({
    '/': titled('home', linksPage(['/a', '/b']).replace(/^<html><body>|<\/body><\/html>$/g, '')),
    '/a': titled('A'),
    '/b': titled('B'),
    '/with-missing': titled('with missing', '<a href="/missing">gone</a>'),
    '/old': (_req, res) => res.writeHead(301, { Location: '/a' }).end(),
    '/etag-auth': (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') res.writeHead(304, { ETag: '"v1"' }).end();
      else res.writeHead(200, { 'Content-Type': 'text/html', ETag: '"v1"', 'Cache-Control': 'max-age=0' }).end(titled('etag auth'));
    },
  });
});

afterAll(async () => {
  await site.close();
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-httpcache-'));
  site.reset();
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function run(settings: Record<string, unknown> = {}, urls = site.url('/'), extra: Record<string, string> = {}): Promise<CrawlResult> {
  return runCrawl(CacheSpider, { HTTPCACHE_ENABLED: true, HTTPCACHE_DIR: dir, ...settings }, { urls, ...extra });
}

/** The httpcache/* stats of a run. */
function cacheStats(result: CrawlResult): Record<string, unknown> {
  return Object.fromEntries(Object.entries(result.stats).filter(([key]) => key.startsWith('httpcache/')));
}

function byUrl(items: CrawlResult['items']): CrawlResult['items'] {
  return [...items].sort((x, y) => String(x['url']).localeCompare(String(y['url'])));
}

function crawledLines(result: CrawlResult): string[] {
  return result.lines.filter((line) => line.startsWith('Crawled (')).sort();
}

function entryDir(cacheDir: string, url: string): string {
  const fp = fingerprint(new Request(url));
  return join(cacheDir, 'cachetest', fp.slice(0, 2), fp);
}

const TIMEOUT = 30_000;

describe('HttpCacheMiddleware in a crawl (DummyPolicy, FilesystemCacheStorage)', () => {
  it('serves the second run from the cache: the server sees no request, each response is flagged cached', async () => {
    const first = await run();
    expect([...site.hits].sort()).toEqual(['/', '/a', '/b']);
    expect(cacheStats(first)).toEqual({ 'httpcache/miss': 3, 'httpcache/firsthand': 3, 'httpcache/store': 3 });
    expect(crawledLines(first).every((line) => !line.includes('cached'))).toBe(true);

    site.reset();
    const second = await run();
    expect(site.hits).toEqual([]);
    expect(cacheStats(second)).toEqual({ 'httpcache/hit': 3 });
    expect(byUrl(second.items)).toEqual(byUrl(first.items).map((item) => ({ ...item, flags: ['cached'] })));
    const home = site.url('/');
    expect(crawledLines(second)).toEqual([
      expect.stringMatching(new RegExp(`^Crawled \\(200\\) <GET ${home}> \\(referer: None\\) \\['cached'\\]$`)),
      expect.stringMatching(new RegExp(`^Crawled \\(200\\) <GET ${home}a> \\(referer: ${home}\\) \\['cached'\\]$`)),
      expect.stringMatching(new RegExp(`^Crawled \\(200\\) <GET ${home}b> \\(referer: ${home}\\) \\['cached'\\]$`)),
    ]);
    // Cached responses still pass the downloader stats, which sit before the cache (850 < 900), as in Scrapy.
    expect([second.stats['downloader/response_count'], second.stats['response_received_count']]).toEqual([3, 3]);
  }, TIMEOUT);

  it('writes <HTTPCACHE_DIR>/<spider>/<fp[0:2]>/<fp>/ per request, with the JSON meta of what was stored', async () => {
    await run();
    expect(readdirSync(join(dir, 'cachetest')).sort()).toEqual(
      [...new Set(['/', '/a', '/b'].map((path) => fingerprint(new Request(site.url(path))).slice(0, 2)))].sort(),
    );
    for (const path of ['/', '/a', '/b']) {
      const entry = entryDir(dir, site.url(path));
      expect(readdirSync(entry).sort()).toEqual(['meta', 'request_body', 'request_headers', 'response_body', 'response_headers']);
      const meta = JSON.parse(readFileSync(join(entry, 'meta'), 'utf8')) as Record<string, unknown>;
      expect(meta).toEqual({ url: site.url(path), method: 'GET', status: 200, response_url: site.url(path), timestamp: expect.any(Number) });
      expect(Math.abs((meta['timestamp'] as number) - Date.now() / 1000)).toBeLessThan(60);
      expect(readFileSync(join(entry, 'response_headers'), 'latin1')).toMatch(/^Content-Type: text\/html; charset=utf-8\r\n/m);
      expect(readFileSync(join(entry, 'request_headers'), 'latin1')).toMatch(/^User-Agent: seine\//m);
    }
  }, TIMEOUT);

  it('replays a redirect: the 301 and the page it leads to are stored under their own requests', async () => {
    const first = await run({}, site.url('/old'));
    expect([site.hits, cacheStats(first)]).toEqual([['/old', '/a'], { 'httpcache/miss': 2, 'httpcache/firsthand': 2, 'httpcache/store': 2 }]);
    expect(JSON.parse(readFileSync(join(entryDir(dir, site.url('/old')), 'meta'), 'utf8'))).toMatchObject({ url: site.url('/old'), status: 301, response_url: site.url('/old') });
    site.reset();
    const second = await run({}, site.url('/old'));
    expect([site.hits, cacheStats(second), second.items]).toEqual([[], { 'httpcache/hit': 2 }, [{ url: site.url('/a'), status: 200, title: 'A', flags: ['cached'] }]]);
    expect(second.lines).toContain(`Redirecting (301) to <GET ${site.url('/a')}> from <GET ${site.url('/old')}>`);
  }, TIMEOUT);

  it('is off unless HTTPCACHE_ENABLED: nothing is written and every run downloads', async () => {
    const result = await runCrawl(CacheSpider, { HTTPCACHE_DIR: dir }, { urls: site.url('/a') });
    expect([site.hits, cacheStats(result), readdirSync(dir)]).toEqual([['/a'], {}, []]);
  }, TIMEOUT);

  it('downloads again what is older than HTTPCACHE_EXPIRATION_SECS, and stores it anew', async () => {
    await run({ HTTPCACHE_EXPIRATION_SECS: 60 });
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(entryDir(dir, site.url('/a')), 'meta'), old, old);
    site.reset();
    const second = await run({ HTTPCACHE_EXPIRATION_SECS: 60 });
    expect(site.hits).toEqual(['/a']);
    expect(cacheStats(second)).toEqual({ 'httpcache/hit': 2, 'httpcache/miss': 1, 'httpcache/firsthand': 1, 'httpcache/store': 1 });
  }, TIMEOUT);

  it('does not store HTTPCACHE_IGNORE_HTTP_CODES responses, which are downloaded again next time', async () => {
    const first = await run({ HTTPCACHE_IGNORE_HTTP_CODES: '404' }, site.url('/with-missing'));
    expect(cacheStats(first)).toEqual({ 'httpcache/miss': 2, 'httpcache/firsthand': 2, 'httpcache/store': 1, 'httpcache/uncacheable': 1 });
    expect(existsSync(entryDir(dir, site.url('/missing')))).toBe(false);
    site.reset();
    const second = await run({ HTTPCACHE_IGNORE_HTTP_CODES: '404' }, site.url('/with-missing'));
    expect(site.hits).toEqual(['/missing']);
    expect(cacheStats(second)).toEqual({ 'httpcache/hit': 1, 'httpcache/miss': 1, 'httpcache/firsthand': 1, 'httpcache/uncacheable': 1 });
  }, TIMEOUT);

  it('stores error responses too by default (DummyPolicy keeps everything)', async () => {
    await run({}, site.url('/with-missing'));
    site.reset();
    const second = await run({}, site.url('/with-missing'));
    expect([site.hits, cacheStats(second)]).toEqual([[], { 'httpcache/hit': 2 }]);
    expect(second.stats['httperror/response_ignored_status_count/404']).toBe(1);
  }, TIMEOUT);

  it('with HTTPCACHE_IGNORE_MISSING, serves what is cached and drops the rest without downloading it', async () => {
    await run({}, site.url('/a'));
    site.reset();
    const second = await run({ HTTPCACHE_IGNORE_MISSING: true }, [site.url('/a'), site.url('/b')].join(','));
    expect(site.hits).toEqual([]);
    expect(second.items).toEqual([{ url: site.url('/a'), status: 200, title: 'A', flags: ['cached'] }]);
    expect(cacheStats(second)).toEqual({ 'httpcache/hit': 1, 'httpcache/miss': 1, 'httpcache/ignore': 1 });
    expect(second.lines).toContain(`Ignoring request <GET ${site.url('/b')}>: Ignored request not in cache: <GET ${site.url('/b')}>`);
  }, TIMEOUT);

  it('with HTTPCACHE_GZIP, writes gzipped files and serves the next run from them', async () => {
    await run({ HTTPCACHE_GZIP: true }, site.url('/a'));
    const entry = entryDir(dir, site.url('/a'));
    expect(readdirSync(entry).map((name) => readFileSync(join(entry, name)).subarray(0, 2).toString('hex'))).toEqual(['1f8b', '1f8b', '1f8b', '1f8b', '1f8b']);
    site.reset();
    const second = await run({ HTTPCACHE_GZIP: true }, site.url('/a'));
    expect([site.hits, second.items]).toEqual([[], [{ url: site.url('/a'), status: 200, title: 'A', flags: ['cached'] }]]);
  }, TIMEOUT);

  it('leaves file:// URLs alone (HTTPCACHE_IGNORE_SCHEMES)', async () => {
    const file = join(dir, 'local.html');
    writeFileSync(file, titled('local'));
    const url = pathToFileURL(file).href;
    for (let i = 0; i < 2; i++) {
      const result = await run({}, url);
      expect([result.items, cacheStats(result)]).toEqual([[{ url, status: 200, title: 'local', flags: [] }], {}]);
    }
    expect(readdirSync(dir)).toEqual(['local.html']);
  }, TIMEOUT);

  it('leaves requests with meta.dont_cache alone', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await run({}, site.url('/a'), { dontCache: '1' });
      expect(cacheStats(result)).toEqual({});
    }
    expect([site.hits, readdirSync(dir)]).toEqual([['/a', '/a'], []]);
  }, TIMEOUT);
});

/** Sends credentials in each of the three headers that carry them (docs/security.md, "HTTP cache"). */
class CredentialsSpider extends CacheSpider {
  static override name = 'cachetest';

  override async *start() {
    for (const url of (this.urls ?? '').split(',')) {
      yield new Request(url, { callback: this.parse, headers: { Authorization: 'Basic dXNlcjpodW50ZXIy', 'Proxy-Authorization': 'Basic cHJveHk6czNjcjN0', Cookie: 'session=s3cret' } });
    }
  }
}

describe('HttpCacheMiddleware: no credentials in clear in the cache', () => {
  it('stores Authorization, Proxy-Authorization and Cookie as <redacted>; the next run (RFC2616Policy, revalidating) is served from the cache as before', async () => {
    const url = site.url('/etag-auth');
    const settings = { HTTPCACHE_POLICY: 'RFC2616Policy' };
    const first = await runCrawl(CredentialsSpider, { HTTPCACHE_ENABLED: true, HTTPCACHE_DIR: dir, ...settings }, { urls: url });
    expect(first.items).toEqual([{ url, status: 200, title: 'etag auth', flags: [] }]);
    const stored = readFileSync(join(entryDir(dir, url), 'request_headers'), 'latin1');
    expect(stored).toMatch(/^Authorization: <redacted>\r?$/m);
    // HttpProxyMiddleware removes a Proxy-Authorization without a proxy (as Scrapy); the storage spec checks it is redacted too.
    expect(stored).not.toMatch(/^Proxy-Authorization: (?!<redacted>)/m);
    expect(stored).toMatch(/^Cookie: <redacted>\r?$/m);
    expect(stored).toMatch(/^User-Agent: seine\//m);
    for (const secret of ['dXNlcjpodW50ZXIy', 'cHJveHk6czNjcjN0', 's3cret']) {
      for (const file of readdirSync(entryDir(dir, url))) expect(readFileSync(join(entryDir(dir, url), file), 'latin1')).not.toContain(secret);
    }
    site.reset();
    const second = await runCrawl(CredentialsSpider, { HTTPCACHE_ENABLED: true, HTTPCACHE_DIR: dir, ...settings }, { urls: url });
    // Revalidated with the request's own headers (the credentials went to the server again), answered 304, served from the cache.
    expect([site.hits, cacheStats(second), second.items]).toEqual([['/etag-auth'], { 'httpcache/revalidate': 1 }, [{ url, status: 200, title: 'etag auth', flags: ['cached'] }]]);
    expect(site.requests.at(-1)?.headers['authorization']).toBe('Basic dXNlcjpodW50ZXIy');
  }, TIMEOUT);
});

describe('HttpCacheMiddleware: where the cache goes', () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));

  it('in a project, under .seine/httpcache next to seine.cfg, from any folder inside it', async () => {
    const project = join(dir, 'proj');
    mkdirSync(join(project, 'proj', 'spiders'), { recursive: true });
    writeFileSync(join(project, 'seine.cfg'), '[settings]\ndefault = proj.settings\n');
    writeFileSync(join(project, 'proj', 'settings.ts'), "export const BOT_NAME = 'proj';\n");
    process.chdir(join(project, 'proj', 'spiders'));
    await runCrawl(CacheSpider, { HTTPCACHE_ENABLED: true }, { urls: site.url('/a') });
    expect(readdirSync(join(project, '.seine', 'httpcache', 'cachetest'))).toEqual([fingerprint(new Request(site.url('/a'))).slice(0, 2)]);
    expect(existsSync(join(project, 'proj', 'spiders', '.seine'))).toBe(false);
  }, TIMEOUT);

  it('outside a project, under .seine/ in the current folder; a relative HTTPCACHE_DIR goes there too', async () => {
    process.chdir(dir);
    await runCrawl(CacheSpider, { HTTPCACHE_ENABLED: true, HTTPCACHE_DIR: 'mycache' }, { urls: site.url('/a') });
    expect(readdirSync(join(dir, '.seine'))).toEqual(['mycache']);
    expect(existsSync(entryDir(join(dir, '.seine', 'mycache'), site.url('/a')))).toBe(true);
  }, TIMEOUT);
});

describe('HttpCacheMiddleware in a crawl with HTTPCACHE_POLICY = RFC2616Policy', () => {
  let rfc: TestSite;
  let version = 1;
  const RFC = { HTTPCACHE_POLICY: 'RFC2616Policy' };

  beforeAll(async () => {
    rfc = await startSite({
      // Always stale (max-age=0), but revalidates: a matching If-None-Match gets a 304.
      '/etag': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"') res.writeHead(304, { ETag: '"v1"' }).end();
        else res.writeHead(200, { 'Content-Type': 'text/html', ETag: '"v1"', 'Cache-Control': 'max-age=0' }).end(titled('etag v1'));
      },
      // Changes at every request, whatever the validators say.
      '/changing': (_req, res) => {
        const v = version++;
        res.writeHead(200, { 'Content-Type': 'text/html', ETag: `"v${v}"`, 'Cache-Control': 'max-age=0' }).end(titled(`version ${v}`));
      },
      '/fresh': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'max-age=3600' }).end(titled('fresh')),
      '/no-store': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store, max-age=3600' }).end(titled('no store')),
      '/plain': titled('plain'),
    });
  });

  afterAll(async () => {
    await rfc.close();
  });

  beforeEach(() => rfc.reset());

  it('serves a response that is still fresh (max-age) without asking the server', async () => {
    await run(RFC, rfc.url('/fresh'));
    rfc.reset();
    const second = await run(RFC, rfc.url('/fresh'));
    expect([rfc.hits, cacheStats(second), second.items]).toEqual([[], { 'httpcache/hit': 1 }, [{ url: rfc.url('/fresh'), status: 200, title: 'fresh', flags: ['cached'] }]]);
  }, TIMEOUT);

  it('revalidates a stale response with If-None-Match; on a 304 the cached response is the answer', async () => {
    const first = await run(RFC, rfc.url('/etag'));
    expect(cacheStats(first)).toEqual({ 'httpcache/miss': 1, 'httpcache/firsthand': 1, 'httpcache/store': 1 });
    rfc.reset();
    const second = await run(RFC, rfc.url('/etag'));
    expect(rfc.requests.map((hit) => [hit.path, hit.headers['if-none-match']])).toEqual([['/etag', '"v1"']]);
    expect(cacheStats(second)).toEqual({ 'httpcache/revalidate': 1 });
    expect(second.items).toEqual([{ url: rfc.url('/etag'), status: 200, title: 'etag v1', flags: ['cached'] }]);
    expect(crawledLines(second)).toEqual([expect.stringMatching(/^Crawled \(200\) <GET .*\/etag> \(referer: None\) \['cached'\]$/)]);
  }, TIMEOUT);

  it('replaces a stale response the server changed, and stores the new one', async () => {
    const first = await run(RFC, rfc.url('/changing'));
    const second = await run(RFC, rfc.url('/changing'));
    expect(rfc.requests.map((hit) => hit.headers['if-none-match'])).toEqual([undefined, '"v1"']);
    expect([first.items[0]!['title'], second.items[0]!['title'], second.items[0]!['flags']]).toEqual(['version 1', 'version 2', []]);
    expect(cacheStats(second)).toEqual({ 'httpcache/invalidate': 1, 'httpcache/store': 1 });
    expect(readFileSync(join(entryDir(dir, rfc.url('/changing')), 'response_body'), 'utf8')).toBe(titled('version 2'));
  }, TIMEOUT);

  it('does not store no-store responses, nor responses without expiry or validators', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await run(RFC, [rfc.url('/no-store'), rfc.url('/plain')].join(','));
      expect(cacheStats(result)).toEqual({ 'httpcache/miss': 2, 'httpcache/firsthand': 2, 'httpcache/uncacheable': 2 });
    }
    expect([...rfc.hits].sort()).toEqual(['/no-store', '/no-store', '/plain', '/plain']);
    expect(readdirSync(dir)).toEqual([]);
  }, TIMEOUT);

  it('falls back to the stale cached response when the server cannot be reached', async () => {
    const gone = await startSite({ '/etag': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', ETag: '"x"' }).end(titled('before the outage')) });
    const url = gone.url('/etag');
    await run(RFC, url);
    await gone.close();
    const second = await run({ ...RFC, RETRY_ENABLED: false }, url);
    expect(cacheStats(second)).toEqual({ 'httpcache/errorrecovery': 1 });
    expect(second.items).toEqual([{ url, status: 200, title: 'before the outage', flags: ['cached'] }]);
  }, TIMEOUT);
});
