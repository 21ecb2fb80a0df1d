/**
 * WARC_ENABLED in a crawl of a local site: every download is a response and
 * a request record, read back by an independent Python reader (digests,
 * lengths, the CDXJ offsets) and by warcio's parser; a compressed and a
 * chunked page are recorded decoded with a Content-Length that frames them;
 * a small WARC_MAX_SIZE rolls over to new files, each opened by a warcinfo.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Request, Spider, type Response } from '../../src/index.js';
import { runCrawl, startSite, type TestSite } from '../helpers/site-server.js';
import { header, indexWithWarcio, readWithPython, readWithWarcio, sha1Digest, warcFiles } from './fixtures/warc-reading.js';

const GZIPPED = gzipSync('<html><body><h1>Gzipped</h1></body></html>');

const PAGE = (n: number): string => `<html><body><h1>Page ${n}</h1>${n < 4 ? `<a href="/page/${n + 1}">next</a>` : ''}</body></html>`;

class PagesSpider extends Spider {
  static override name = 'pages';
  declare base: string;
  override async *start() {
    yield new Request(`${this.base}/page/1`);
    yield new Request(`${this.base}/gzipped`, { callback: this.page });
    yield new Request(`${this.base}/chunked`, { callback: this.page });
    yield new Request(`${this.base}/form`, { method: 'POST', body: 'q=seine', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, callback: this.page });
  }
  override *parse(response: Response) {
    yield { title: response.css('h1::text').get() };
    const next = response.css('a::attr(href)').get();
    if (next !== null) yield response.follow(next);
  }
  *page(response: Response) {
    yield { title: response.css('h1::text').get() };
  }
}

let site: TestSite;
let root: string;
beforeAll(async () => {
  const routes: Parameters<typeof startSite>[0] = {
    '/gzipped': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }).end(GZIPPED);
    },
    '/chunked': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.write('<html><body><h1>Chun');
      setTimeout(() => res.end('ked</h1></body></html>'), 20);
    },
    '/cut': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '100' });
      res.write('0123456789', () => setTimeout(() => res.destroy(), 20));
    },
    '/form': (_req, res) => res.writeHead(200, 'Posted Fine', { 'Content-Type': 'text/html', 'Set-Cookie': ['a=1', 'b=2'] }).end('<html><body><h1>Posted</h1></body></html>'),
  };
  for (let n = 1; n <= 4; n++) routes[`/page/${n}`] = PAGE(n);
  site = await startSite(routes);
  root = mkdtempSync(join(tmpdir(), 'seine-warc-'));
});
afterAll(async () => {
  await site.close();
  rmSync(root, { recursive: true, force: true });
});

async function crawlInto(dir: string, settings: Record<string, unknown> = {}) {
  return runCrawl(PagesSpider, { WARC_ENABLED: true, WARC_DIR: dir, ROBOTSTXT_OBEY: false, ...settings }, { base: site.url('') });
}

describe('WARC_ENABLED', () => {
  it('writes a response and a request record for every download, which an independent reader verifies', async () => {
    const dir = join(root, 'one');
    const result = await crawlInto(dir);
    expect(result.items).toHaveLength(7);
    const files = readWithPython(dir);
    expect(files).toHaveLength(1);
    const [file] = files;
    expect(file!.file).toMatch(/^pages-\d{14}-00000\.warc\.gz$/);
    expect(file!.errors).toEqual([]);
    expect(file!.truncated).toBe(false);
    const records = file!.records;
    expect(records[0]!.type).toBe('warcinfo');
    expect(records[0]!.body).toMatch(/^software: seine\/\S+ \(warcio\.js\/2\.4\.\d+\)\r\nformat: WARC File Format 1\.1\r\n/);
    expect(records[0]!.body).toContain('robots: ignore\r\n');
    const urls = ['/page/1', '/page/2', '/page/3', '/page/4', '/gzipped', '/chunked', '/form'].map((path) => site.url(path));
    const responses = records.filter((r) => r.type === 'response');
    const requests = records.filter((r) => r.type === 'request');
    expect(responses.map((r) => r.uri).sort()).toEqual([...urls].sort());
    expect(requests.map((r) => r.uri).sort()).toEqual([...urls].sort());
    for (const response of responses) {
      const request = records[records.indexOf(response) + 1]!;
      expect(request.type).toBe('request');
      expect(request.concurrentTo).toBe(response.id);
      expect(response.ip).toBe('127.0.0.1');
      expect(response.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    const byUrl = (path: string) => responses.find((r) => r.uri === site.url(path))!;
    expect(byUrl('/page/2').http!.body).toBe(PAGE(2));
    expect(byUrl('/page/2').http!.firstLine).toBe('HTTP/1.1 200 OK');
    // Recorded as the server sent it: still gzip-compressed, the payload digest over those bytes (the reader checks it).
    const gzipped = byUrl('/gzipped').http!;
    expect(header(gzipped.headers, 'content-encoding')).toBe('gzip');
    expect(gzipped.bodyLength).toBe(GZIPPED.length);
    expect(byUrl('/gzipped').payloadDigest).toBe(sha1Digest(GZIPPED));
    const chunked = byUrl('/chunked').http!;
    expect(header(chunked.headers, 'transfer-encoding')).toBeUndefined();
    expect(header(chunked.headers, 'content-length')).toBe(String(chunked.body.length));
    expect(byUrl('/page/2').http!.firstLine).toBe('HTTP/1.1 200 OK');
    // The server's own reason phrase.
    expect(byUrl('/form').http!.firstLine).toBe('HTTP/1.1 200 Posted Fine');
    expect(byUrl('/form').http!.headers.filter(([name]) => name.toLowerCase() === 'set-cookie')).toEqual([['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']]);
    // The request as sent: after the downloader middlewares (the user agent), with the client's own headers.
    const post = requests.find((r) => r.uri === site.url('/form'))!.http!;
    expect(post.firstLine).toBe('POST /form HTTP/1.1');
    expect(post.body).toBe('q=seine');
    const sent = site.requests.find((hit) => hit.path === '/form')!;
    expect(header(post.headers, 'user-agent')).toBe(sent.headers['user-agent']);
    expect(header(post.headers, 'host')).toBe(sent.headers.host);
    expect(header(post.headers, 'accept-encoding')).toBe(sent.headers['accept-encoding']);
    expect(header(post.headers, 'content-length')).toBe('7');
    // The CDXJ index: one line per response, at its offset, as warcio indexes it.
    expect(file!.index.map((line) => line.url).sort()).toEqual([...urls].sort());
    const line = file!.index.find((entry) => entry.url === site.url('/page/2'))!;
    expect(line).toMatchObject({ mime: 'text/html', status: '200', filename: file!.file });
    // warcio's SURT reverses an IP address as it reverses a host name.
    expect(line.surt).toMatch(/^1,0,0,127:\d+\)\/page\/2$/);
    expect(result.stats['warc/files']).toBe(1);
    expect(result.stats['warc/records']).toBe(records.length);
    // The index written as the crawl went is the one warcio makes of the finished file (a POST keyed by its body, as pywb looks it up).
    const index = readFileSync(join(dir, file!.file.replace(/\.warc\.gz$/, '.cdxj')), 'utf8');
    expect(index).toBe(indexWithWarcio(join(dir, file!.file)));
    expect(index).toMatch(/\/form\?__wb_method=post&q=seine \d{14} \{.*"method":"POST","requestBody":"q=seine"\}\n/);
    // warcio's own parser reads the same records, and decodes the gzip-compressed body.
    const parsed = await readWithWarcio(join(dir, file!.file));
    expect(parsed.map((r) => r.type)).toEqual(records.map((r) => r.type));
    expect(parsed.find((r) => r.uri === site.url('/gzipped') && r.type === 'response')!.text).toBe('<html><body><h1>Gzipped</h1></body></html>');
  });

  it('starts a new file past WARC_MAX_SIZE, each with a warcinfo record first and its own index', async () => {
    const dir = join(root, 'rolled');
    const result = await crawlInto(dir, { WARC_MAX_SIZE: 1500, CONCURRENT_REQUESTS: 1 });
    const files = readWithPython(dir);
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(files.map((f) => f.file.replace(/-\d{14}-/, '-T-'))).toEqual(files.map((_f, i) => `pages-T-${String(i).padStart(5, '0')}.warc.gz`));
    for (const file of files) {
      expect(file.errors).toEqual([]);
      expect(file.records[0]!.type).toBe('warcinfo');
      expect(file.records.filter((r) => r.type === 'warcinfo')).toHaveLength(1);
      // A file holds whole exchanges: each response with its request.
      expect(file.records.filter((r) => r.type === 'response')).toHaveLength(file.records.filter((r) => r.type === 'request').length);
      expect(file.index.length).toBe(file.records.filter((r) => r.type === 'response').length);
      expect(readFileSync(join(dir, file.file.replace(/\.warc\.gz$/, '.cdxj')), 'utf8')).toBe(indexWithWarcio(join(dir, file.file)));
    }
    expect(files.flatMap((f) => f.records).filter((r) => r.type === 'response')).toHaveLength(7);
    expect(result.stats['warc/files']).toBe(files.length);
  });

  it('writes nothing for responses the HTTP cache answers: they were not downloaded', async () => {
    const cache = join(root, 'cache');
    await crawlInto(join(root, 'cache-first'), { HTTPCACHE_ENABLED: true, HTTPCACHE_DIR: cache });
    const hitsBefore = site.hits.length;
    const again = await crawlInto(join(root, 'cache-second'), { HTTPCACHE_ENABLED: true, HTTPCACHE_DIR: cache });
    expect(site.hits).toHaveLength(hitsBefore);
    expect(again.items).toHaveLength(7);
    const [file] = readWithPython(join(root, 'cache-second'));
    expect(file!.errors).toEqual([]);
    expect(file!.records.map((r) => r.type)).toEqual(['warcinfo']);
    expect(file!.index).toEqual([]);
    expect(readWithPython(join(root, 'cache-first'))[0]!.records.filter((r) => r.type === 'response')).toHaveLength(7);
  });

  it('marks a body cut short by a lost connection WARC-Truncated: disconnect, framed by what arrived', async () => {
    class CutSpider extends Spider {
      static override name = 'cut';
      declare base: string;
      override async *start() {
        yield new Request(`${this.base}/cut`);
      }
      override *parse(response: Response) {
        yield { length: response.body.length };
      }
    }
    const dir = join(root, 'cut');
    const result = await runCrawl(CutSpider, { WARC_ENABLED: true, WARC_DIR: dir, ROBOTSTXT_OBEY: false, DOWNLOAD_FAIL_ON_DATALOSS: false }, { base: site.url('') });
    expect(result.items).toEqual([{ length: 10 }]);
    const [file] = readWithPython(dir);
    expect(file!.errors).toEqual([]);
    const response = file!.records.find((r) => r.type === 'response')!;
    expect(response.truncated).toBe('disconnect');
    expect(response.http!.body).toBe('0123456789');
    expect(header(response.http!.headers, 'content-length')).toBe('10');
  });

  it('stops the crawl at the start with one line when WARC_DIR cannot be created', async () => {
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const hitsBefore = site.hits.length;
    const result = await crawlInto(join(blocker, 'warc')).catch((error: Error) => error);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toContain(`Cannot write WARC files in WARC_DIR '${join(blocker, 'warc')}': ENOTDIR`);
    expect(site.hits).toHaveLength(hitsBefore);
    expect(warcFiles(root).length).toBe(0);
  });
});

