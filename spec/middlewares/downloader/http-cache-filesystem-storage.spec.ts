import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fingerprint } from '../../../src/http/fingerprint.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { FilesystemCacheStorage, headersFromRaw, headersToRaw } from '../../../src/middlewares/downloader/http-cache-filesystem-storage.js';
import { fakeCrawler, recordLogs } from '../../helpers/fake-crawler.js';
import { LogBus } from '../../../src/log/index.js';
import { Headers } from '../../../src/http/headers.js';

let dir: string;
const spider = fakeCrawler().spider;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-httpcache-storage-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function page(request: Request, body = '<html><body>hello</body></html>'): Response {
  return new Response({
    url: request.url,
    status: 200,
    headers: [['Content-Type', 'text/html; charset=utf-8'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']],
    body,
    request,
  });
}

describe('FilesystemCacheStorage: layout', () => {
  it('keeps one folder per request, <dir>/<spider>/<fp[0:2]>/<fp>/, with five files', async () => {
    const storage = new FilesystemCacheStorage({ dir, now: () => 1_700_000_000_500 });
    const request = new Request('http://example.com/page?b=2&a=1', { method: 'POST', body: 'q=1', headers: { 'X-Test': 'yes' } });
    await storage.storeResponse(spider, request, page(request));
    const fp = fingerprint(request);
    const entry = join(dir, 'test', fp.slice(0, 2), fp);
    expect(storage.entryPath(spider, request)).toBe(entry);
    expect(readdirSync(entry).sort()).toEqual(['meta', 'request_body', 'request_headers', 'response_body', 'response_headers']);
    expect(JSON.parse(readFileSync(join(entry, 'meta'), 'utf8'))).toEqual({
      url: 'http://example.com/page?b=2&a=1',
      method: 'POST',
      status: 200,
      response_url: 'http://example.com/page?b=2&a=1',
      timestamp: 1_700_000_000.5,
    });
    expect(readFileSync(join(entry, 'request_headers'), 'latin1')).toBe('X-Test: yes');
    expect(readFileSync(join(entry, 'request_body'), 'utf8')).toBe('q=1');
    expect(readFileSync(join(entry, 'response_headers'), 'latin1')).toBe('Content-Type: text/html; charset=utf-8\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2');
    expect(readFileSync(join(entry, 'response_body'), 'utf8')).toBe('<html><body>hello</body></html>');
  });

  it('gzips every file with gzip on, and reads the entry back either way', async () => {
    const request = new Request('http://example.com/');
    await new FilesystemCacheStorage({ dir, gzip: true }).storeResponse(spider, request, page(request));
    const entry = new FilesystemCacheStorage({ dir }).entryPath(spider, request);
    for (const name of readdirSync(entry)) expect([name, readFileSync(join(entry, name)).subarray(0, 2).toString('hex')]).toEqual([name, '1f8b']);
    expect(gunzipSync(readFileSync(join(entry, 'response_body'))).toString()).toBe('<html><body>hello</body></html>');
    for (const gzip of [true, false]) {
      const cached = await new FilesystemCacheStorage({ dir, gzip }).retrieveResponse(spider, request);
      expect(cached?.text).toBe('<html><body>hello</body></html>');
    }
  });
});

describe('FilesystemCacheStorage: credentials (docs/security.md, "HTTP cache")', () => {
  it('writes Authorization, Proxy-Authorization and Cookie as "<redacted>", one line each whatever the case and the number of values, gzipped or not', async () => {
    for (const gzip of [false, true]) {
      const request = new Request(`http://example.com/private?gzip=${gzip}`, {
        headers: [['authorization', 'Bearer t0ken'], ['Proxy-Authorization', 'Basic cHJveHk6czNjcjN0'], ['Cookie', 'a=s3cret'], ['Cookie', 'b=s3cret2'], ['X-Kept', 'visible']],
      });
      const storage = new FilesystemCacheStorage({ dir, gzip });
      await storage.storeResponse(spider, request, page(request));
      const raw = readFileSync(join(storage.entryPath(spider, request), 'request_headers'));
      const text = (gzip ? gunzipSync(raw) : raw).toString('latin1');
      expect(text.split('\r\n').sort()).toEqual(['Cookie: <redacted>', 'Proxy-Authorization: <redacted>', 'X-Kept: visible', 'authorization: <redacted>'].sort());
      // The response reads back whole: nothing in the entry needed the request's credentials.
      expect((await storage.retrieveResponse(spider, request))?.text).toBe('<html><body>hello</body></html>');
      // The request itself is untouched: its credentials still go to the server.
      expect(request.headers.get('Authorization')).toBe('Bearer t0ken');
    }
  });
});

describe('FilesystemCacheStorage: reading back', () => {
  it('rebuilds the response: URL, status, every header value, body bytes, kind, and the request it answers', async () => {
    const storage = new FilesystemCacheStorage({ dir });
    const request = new Request('http://example.com/feed');
    const xml = Buffer.from('<?xml version="1.0" encoding="iso-8859-1"?><rss><title>caf\xe9</title></rss>', 'latin1');
    await storage.storeResponse(spider, request, new Response({ url: 'http://example.com/feed/', status: 203, headers: { 'Content-Type': 'application/rss+xml', 'Set-Cookie': ['a=1', 'b=2'] }, body: xml, request }));
    const later = new Request('http://example.com/feed');
    const cached = await storage.retrieveResponse(spider, later);
    expect(cached).not.toBeNull();
    expect([cached!.url, cached!.status, cached!.headers.getList('set-cookie'), cached!.body.equals(xml), cached!.kind, cached!.request, cached!.flags])
      .toEqual(['http://example.com/feed/', 203, ['a=1', 'b=2'], true, 'xml', later, []]);
    expect(cached!.xpath('//title/text()').get()).toBe('café');
  });

  it('finds nothing for another request, another spider, or an empty folder', async () => {
    const storage = new FilesystemCacheStorage({ dir });
    const request = new Request('http://example.com/');
    await storage.storeResponse(spider, request, page(request));
    class Other extends (spider.constructor as typeof import('../../../src/contracts/spider.js').Spider) {
      static override name = 'other';
    }
    expect(await storage.retrieveResponse(spider, new Request('http://example.com/other'))).toBeNull();
    expect(await storage.retrieveResponse(new Other(), request)).toBeNull();
    expect(await new FilesystemCacheStorage({ dir: join(dir, 'nothing-here') }).retrieveResponse(spider, request)).toBeNull();
  });

  it("forgets entries whose meta file is older than HTTPCACHE_EXPIRATION_SECS; 0 keeps them for ever", async () => {
    const request = new Request('http://example.com/');
    const storage = new FilesystemCacheStorage({ dir, expirationSecs: 60 });
    await storage.storeResponse(spider, request, page(request));
    const meta = join(storage.entryPath(spider, request), 'meta');
    expect(await storage.retrieveResponse(spider, request)).not.toBeNull();
    const old = new Date(Date.now() - 61_000);
    utimesSync(meta, old, old);
    expect(await storage.retrieveResponse(spider, request)).toBeNull();
    expect(await new FilesystemCacheStorage({ dir, expirationSecs: 0 }).retrieveResponse(spider, request)).not.toBeNull();
    // Touching the meta file renews the entry.
    const now = new Date();
    utimesSync(meta, now, now);
    expect(await storage.retrieveResponse(spider, request)).not.toBeNull();
  });

  it('treats an unreadable entry as missing, with a warning naming it', async () => {
    const logBus = new LogBus();
    const logs = recordLogs(logBus);
    const storage = new FilesystemCacheStorage({ dir, logBus });
    const request = new Request('http://example.com/');
    await storage.storeResponse(spider, request, page(request));
    const entry = storage.entryPath(spider, request);
    writeFileSync(join(entry, 'meta'), '{"status": 200');
    expect(await storage.retrieveResponse(spider, request)).toBeNull();
    rmSync(join(entry, 'response_body'));
    writeFileSync(join(entry, 'meta'), '{"status": 200, "response_url": "http://example.com/"}');
    expect(await storage.retrieveResponse(spider, request)).toBeNull();
    const lines = logs.lines('seine.extensions.httpcache');
    expect(lines.map(([, level]) => level)).toEqual(['WARNING', 'WARNING']);
    expect(lines[0]![2]).toMatch(new RegExp(`^Ignoring unreadable cache entry ${entry.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} for <GET http://example.com/>: `));
    expect(lines[1]![2]).toContain('response_body');
  });

  it('replaces an entry when the same request is stored again, keeping the mtime of the new meta', async () => {
    const storage = new FilesystemCacheStorage({ dir });
    const request = new Request('http://example.com/');
    await storage.storeResponse(spider, request, page(request, 'first'));
    await storage.storeResponse(spider, request, page(request, 'second'));
    expect((await storage.retrieveResponse(spider, request))?.text).toBe('second');
    expect(Date.now() - statSync(join(storage.entryPath(spider, request), 'meta')).mtimeMs).toBeLessThan(60_000);
  });
});

describe('FilesystemCacheStorage: from settings', () => {
  it('reads HTTPCACHE_DIR (an absolute path as it is), HTTPCACHE_EXPIRATION_SECS and HTTPCACHE_GZIP, and logs where it keeps the cache', () => {
    const crawler = fakeCrawler({ HTTPCACHE_DIR: dir, HTTPCACHE_EXPIRATION_SECS: '3600', HTTPCACHE_GZIP: 'True' });
    const storage = FilesystemCacheStorage.fromCrawler(crawler);
    expect([storage.dir, storage.expirationSecs, storage.gzip]).toEqual([dir, 3600, true]);
    storage.openSpider(crawler.spider);
    expect(crawler.lines('seine.extensions.httpcache')).toEqual([['seine.extensions.httpcache', 'DEBUG', `Using filesystem cache storage in ${dir}`]]);
  });
});

describe('raw headers', () => {
  it("write one 'Name: value' line per value and read back, skipping lines without a name", () => {
    const headers = new Headers([['Content-Type', 'text/html'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2; Path=/']]);
    expect(headersToRaw(headers)).toBe('Content-Type: text/html\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2; Path=/');
    expect([...headersFromRaw('Content-Type:  text/html \r\nno colon\r\n: empty name\nX-Time: 10:30').entries()]).toEqual([['Content-Type', ['text/html']], ['X-Time', ['10:30']]]);
  });
});
