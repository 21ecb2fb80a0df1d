import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesPipeline, Request, Spider, type Response, type FileResult, type MediaInfo, type MediaResult } from '../../src/index.js';
import type { Item } from '../../src/http/request.js';
import type { ObjectStore } from '../../src/stores/object-store.js';
import { StoreError } from '../../src/stores/store-error.js';
import { runCrawl, startSite, type Route, type TestSite } from '../helpers/site-server.js';

/** FilesPipeline end to end: a spider's items name files on a local site, the pipeline stores them in a folder. */

const PDF = Buffer.from('%PDF-1.4 a small document\n');
const TEXT = Buffer.from('plain text file\n');
const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');
const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

let site: TestSite;
let store: string;
/** FEED_TEMPDIR of every crawl here: media bodies are streamed there, and must all be gone after the crawl. */
let temp: string;
const flaky = new Map<string, number>();

const file = (body: Buffer, type = 'application/octet-stream'): Route => (_req, res) => res.writeHead(200, { 'Content-Type': type }).end(body);
/** Answers 503 the first time, then the file. */
const failOnce: Route = (req, res) => {
  const n = (flaky.get(req.url!) ?? 0) + 1;
  flaky.set(req.url!, n);
  if (n === 1) res.writeHead(503).end('busy');
  else res.writeHead(200).end(TEXT);
};
/** Promises 1000 bytes, sends 10, and hangs up. */
const truncated: Route = (_req, res) => {
  res.writeHead(200, { 'Content-Length': '1000' });
  res.write(Buffer.alloc(10, 'x'));
  setTimeout(() => res.destroy(), 20);
};

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'seine-files-temp-'));
  site = await startSite({
    '/robots.txt': 'User-agent: *\nDisallow: /private/\n',
    '/docs/report.pdf': file(PDF, 'application/pdf'),
    '/docs/notes.txt': file(TEXT, 'text/plain'),
    '/docs/download': file(TEXT),
    '/docs/archive.tar.gz': file(TEXT),
    '/docs/query.pdf': file(PDF),
    '/docs/empty.pdf': file(Buffer.alloc(0)),
    '/docs/moved.pdf': (_req, res) => res.writeHead(302, { Location: '/docs/report.pdf' }).end(),
    '/docs/truncated.bin': truncated,
    '/docs/flaky.txt': failOnce,
    '/docs/big.bin': file(Buffer.alloc(5000, 'b')),
    '/private/secret.pdf': file(PDF),
    ...Object.fromEntries([1, 2, 3, 4].map((n): [string, Route] => [`/slow/${n}.txt`, (_req, res) => setTimeout(() => res.writeHead(200).end(TEXT), 30)])),
  });
});
afterAll(async () => {
  await site.close();
  rmSync(temp, { recursive: true, force: true });
});

afterEach(() => {
  if (store) rmSync(store, { recursive: true, force: true });
  site.reset();
  expect(readdirSync(temp)).toEqual([]);
});

function newStore(): string {
  store = mkdtempSync(join(tmpdir(), 'seine-files-'));
  return store;
}

/** A spider whose start yields `items` (lists of paths on the site under file_urls), no page requests. */
function itemsSpider(items: Array<Record<string, unknown>>) {
  return class FileItems extends Spider {
    static override name = 'fileitems';
    override async *start() {
      for (const item of items) yield { ...item };
    }
  };
}

const filesOf = (item: Record<string, unknown>): FileResult[] => item['files'] as FileResult[];
const settingsFor = (extra: Record<string, unknown> = {}) => ({ ITEM_PIPELINES: { FilesPipeline: 1 }, FILES_STORE: store, FEED_TEMPDIR: temp, ROBOTSTXT_OBEY: false, ...extra });

/** FilesPipeline retrying a failed store quickly, so that a spec waits milliseconds, not seconds. */
class QuickRetryFiles extends FilesPipeline {
  protected override storeRetry = { attempts: 2, firstDelayMs: 10 };
}

/** Its store refuses the first write (a store briefly down), then is itself again. */
class FailsOncePipeline extends QuickRetryFiles {
  #failed = false;
  override get store(): Promise<ObjectStore> {
    return super.store.then((real) => ({
      displayUri: real.displayUri,
      stat: (key) => real.stat(key),
      close: () => real.close(),
      put: (key, body, options) => {
        if (this.#failed) return real.put(key, body, options);
        this.#failed = true;
        return Promise.reject(new StoreError(`${real.displayUri}/${key}`, 'the disk said no'));
      },
    }));
  }
}

describe('FilesPipeline', () => {
  it('stores each file at full/<sha1 of the URL><ext> with the MD5 of its bytes, results in the order of the URLs', async () => {
    newStore();
    const urls = ['/docs/report.pdf', '/docs/notes.txt', '/docs/download', '/docs/archive.tar.gz'].map((p) => site.url(p));
    const { items, stats } = await runCrawl(itemsSpider([{ name: 'a', file_urls: urls }]), settingsFor());
    expect(items).toHaveLength(1);
    const files = filesOf(items[0]!);
    expect(files).toEqual([
      { url: urls[0], path: `full/${sha1(urls[0]!)}.pdf`, checksum: md5(PDF), status: 'downloaded' },
      { url: urls[1], path: `full/${sha1(urls[1]!)}.txt`, checksum: md5(TEXT), status: 'downloaded' },
      { url: urls[2], path: `full/${sha1(urls[2]!)}`, checksum: md5(TEXT), status: 'downloaded' },
      // Debian's /etc/mime.types lists .gz (application/gzip), so Python keeps the suffix
      { url: urls[3], path: `full/${sha1(urls[3]!)}.gz`, checksum: md5(TEXT), status: 'downloaded' },
    ]);
    expect(readFileSync(join(store, files[0]!.path))).toEqual(PDF);
    expect(readFileSync(join(store, files[1]!.path))).toEqual(TEXT);
    expect(stats['file_count']).toBe(4);
    expect(stats['file_status_count/downloaded']).toBe(4);
  });

  it('finds a file younger than FILES_EXPIRES uptodate on the next run, without downloading it', async () => {
    newStore();
    const url = site.url('/docs/report.pdf');
    await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor());
    site.reset();
    const again = await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor());
    expect(filesOf(again.items[0]!)).toEqual([{ url, path: `full/${sha1(url)}.pdf`, checksum: md5(PDF), status: 'uptodate' }]);
    expect(site.hits).not.toContain('/docs/report.pdf');
    expect(again.stats['file_status_count/uptodate']).toBe(1);
    // FILES_EXPIRES=0: any stored file is too old, so it is downloaded again.
    site.reset();
    const expired = await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor({ FILES_EXPIRES: 0 }));
    expect(filesOf(expired.items[0]!)[0]!.status).toBe('downloaded');
    expect(site.hits).toContain('/docs/report.pdf');
  });

  it('records a file the HTTP cache answered as cached', async () => {
    newStore();
    const cache = mkdtempSync(join(tmpdir(), 'seine-files-cache-'));
    try {
      const url = site.url('/docs/notes.txt');
      const settings = settingsFor({ HTTPCACHE_ENABLED: true, HTTPCACHE_DIR: cache, FILES_EXPIRES: 0 });
      const first = await runCrawl(itemsSpider([{ file_urls: [url] }]), settings);
      expect(filesOf(first.items[0]!)[0]!.status).toBe('downloaded');
      site.reset();
      const second = await runCrawl(itemsSpider([{ file_urls: [url] }]), settings);
      expect(filesOf(second.items[0]!)).toEqual([{ url, path: `full/${sha1(url)}.txt`, checksum: md5(TEXT), status: 'cached' }]);
      expect(site.hits).toEqual([]);
      expect(second.stats['file_status_count/cached']).toBe(1);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('downloads a URL once however many items name it, and every item gets its result', async () => {
    newStore();
    const url = site.url('/docs/report.pdf');
    const items = Array.from({ length: 50 }, (_, i) => ({ n: i, file_urls: [url] }));
    const result = await runCrawl(itemsSpider(items), settingsFor());
    expect(result.items).toHaveLength(50);
    for (const item of result.items) expect(filesOf(item)).toEqual([{ url, path: `full/${sha1(url)}.pdf`, checksum: md5(PDF), status: 'downloaded' }]);
    expect(site.hits.filter((h) => h === '/docs/report.pdf')).toHaveLength(1);
    expect(result.stats['file_count']).toBe(1);
  });

  it.each([
    ['a 404', '/docs/missing.pdf', 'File (code: 404): Error downloading file from <GET URL> referred in <None>'],
    ['an empty body', '/docs/empty.pdf', 'File (empty-content): Empty file from <GET URL> referred in <None>: no-content'],
    ['a redirect (MEDIA_ALLOW_REDIRECTS off)', '/docs/moved.pdf', 'File (code: 302): Error downloading file from <GET URL> referred in <None>'],
  ])('leaves %s out of the results with Scrapy\'s WARNING, and the item goes on', async (_what, path, line) => {
    newStore();
    const url = site.url(path);
    const good = site.url('/docs/notes.txt');
    const { items, logs } = await runCrawl(itemsSpider([{ file_urls: [url, good] }]), settingsFor());
    expect(filesOf(items[0]!).map((f) => f.url)).toEqual([good]);
    const warnings = logs.filter((l) => l.level === 'WARNING').map((l) => l.message);
    expect(warnings).toContain(line.replace('URL', url));
  });

  it('follows a redirect with MEDIA_ALLOW_REDIRECTS, storing the file under the URL the item named', async () => {
    newStore();
    const url = site.url('/docs/moved.pdf');
    const { items } = await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor({ MEDIA_ALLOW_REDIRECTS: true }));
    // As in Scrapy, the result is the request the item named, whatever the redirect middleware downloaded in its place.
    expect(filesOf(items[0]!)).toEqual([{ url, path: `full/${sha1(url)}.pdf`, checksum: md5(PDF), status: 'downloaded' }]);
    expect(site.hits).toEqual(['/docs/moved.pdf', '/docs/report.pdf']);
  });

  it('gives a truncated download one WARNING and leaves it out', async () => {
    newStore();
    const url = site.url('/docs/truncated.bin');
    const { items, logs, reason } = await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor({ RETRY_ENABLED: false }));
    expect(reason).toBe('finished');
    expect(filesOf(items[0]!)).toEqual([]);
    const warning = logs.find((l) => l.level === 'WARNING' && l.message.startsWith('File (unknown-error): Error downloading file from'));
    expect(warning?.message).toContain(`<GET ${url}> referred in <None>: `);
  });

  it('downloads through the download slots: CONCURRENT_REQUESTS_PER_DOMAIN and DOWNLOAD_DELAY hold for media too', async () => {
    newStore();
    const urls = [1, 2, 3, 4].map((n) => site.url(`/slow/${n}.txt`));
    const { items } = await runCrawl(itemsSpider(urls.map((url) => ({ file_urls: [url] }))), settingsFor({ CONCURRENT_REQUESTS_PER_DOMAIN: 1, DOWNLOAD_DELAY: 0.2 }));
    expect(items.flatMap((item) => filesOf(item).map((f) => f.status))).toEqual(['downloaded', 'downloaded', 'downloaded', 'downloaded']);
    expect(site.inFlight.max).toBe(1);
    // RANDOMIZE_DOWNLOAD_DELAY: between 0.5 and 1.5 times the delay between two starts.
    const starts = site.requests.filter((r) => r.path.startsWith('/slow/')).map((r) => r.at);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(95);
  });

  it('retries a 503 through the retry middleware, then stores the file', async () => {
    newStore();
    const url = site.url('/docs/flaky.txt');
    const { items, stats } = await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor());
    expect(filesOf(items[0]!)).toEqual([{ url, path: `full/${sha1(url)}.txt`, checksum: md5(TEXT), status: 'downloaded' }]);
    expect(stats['retry/count']).toBe(1);
    expect(site.hits.filter((h) => h === '/docs/flaky.txt')).toHaveLength(2);
  });

  it('obeys robots.txt: a forbidden media URL is never requested and is left out without a WARNING', async () => {
    newStore();
    const url = site.url('/private/secret.pdf');
    const { items, logs, stats } = await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor({ ROBOTSTXT_OBEY: true }));
    expect(filesOf(items[0]!)).toEqual([]);
    expect(site.hits).not.toContain('/private/secret.pdf');
    expect(stats['robotstxt/forbidden']).toBe(1);
    expect(logs.filter((l) => l.level === 'WARNING' && l.message.startsWith('File ('))).toEqual([]);
  });

  it('refuses a file over DOWNLOAD_MAXSIZE', async () => {
    newStore();
    const url = site.url('/docs/big.bin');
    const { items, logs } = await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor({ DOWNLOAD_MAXSIZE: 1000 }));
    expect(filesOf(items[0]!)).toEqual([]);
    expect(logs.some((l) => l.level === 'WARNING' && l.message.startsWith(`File (unknown-error): Error downloading file from <GET ${url}>`))).toBe(true);
    expect(existsSync(join(store, 'full'))).toBe(false);
  });

  it('keeps a query string out of the extension as Python does', async () => {
    newStore();
    const url = site.url('/docs/query.pdf?v=2');
    const { items } = await runCrawl(itemsSpider([{ file_urls: [url] }]), settingsFor());
    expect(filesOf(items[0]!)[0]!.path).toBe(`full/${sha1(url)}`);
  });

  it('sets the results on a class instance only when its class declares the field, as Scrapy on an Item', async () => {
    newStore();
    class WithFiles {
      file_urls = [site.url('/docs/notes.txt')];
      files: FileResult[] = [];
    }
    class WithoutFiles {
      file_urls = [site.url('/docs/notes.txt')];
    }
    class Classy extends Spider {
      static override name = 'classy';
      override async *start() {
        // Class instances are items too; the spider's output type names plain objects.
        yield new WithFiles() as unknown as Record<string, unknown>;
        yield new WithoutFiles() as unknown as Record<string, unknown>;
      }
    }
    const { items } = await runCrawl(Classy, settingsFor());
    expect(items.find((i) => 'files' in i)?.['files']).toHaveLength(1);
    expect(items.filter((i) => !('files' in i))).toHaveLength(1);
  });

  it('uses a subclass\'s filePath, getMediaRequests and itemCompleted', async () => {
    newStore();
    class NamedFiles extends FilesPipeline {
      override getMediaRequests(item: Item, _info: MediaInfo): Request[] {
        const { docs } = item as { docs: Array<{ href: string; name: string }> };
        return docs.map((doc) => new Request(doc.href, { meta: { name: doc.name } }));
      }
      override filePath(request: Request, _response?: Response, _info?: MediaInfo, { item }: { item?: Item } = {}): string {
        return `${(item as { shelf: string }).shelf}/${String(request.meta['name'])}`;
      }
      override itemCompleted(results: MediaResult[], item: Item): Item {
        return { ...item, stored: results.filter((r) => r[0]).map((r) => (r[1] as FileResult).path) };
      }
    }
    const docs = [
      { href: site.url('/docs/report.pdf'), name: 'report.pdf' },
      { href: site.url('/docs/notes.txt'), name: 'notes.txt' },
    ];
    const { items } = await runCrawl(itemsSpider([{ shelf: 'papers', docs }]), { ...settingsFor(), ITEM_PIPELINES: new Map([[NamedFiles, 1]]) });
    expect(items[0]!['stored']).toEqual(['papers/report.pdf', 'papers/notes.txt']);
    expect(readFileSync(join(store, 'papers/report.pdf'))).toEqual(PDF);
  });

  it('makes a store that fails one WARNING per file and a stat, and the crawl finishes', async () => {
    newStore();
    // A regular file where the store's folder should be: every write fails.
    const blocked = join(store, 'not-a-folder');
    writeFileSync(blocked, 'x');
    const urls = [site.url('/docs/report.pdf'), site.url('/docs/notes.txt')];
    const { items, logs, stats, reason } = await runCrawl(itemsSpider([{ file_urls: urls }]), {
      ...settingsFor({ FILES_STORE: blocked }),
      ITEM_PIPELINES: new Map([[QuickRetryFiles, 1]]),
    });
    expect(reason).toBe('finished');
    expect(filesOf(items[0]!)).toEqual([]);
    // Each file was tried twice (QuickRetryFiles), then given up.
    expect(stats['file_store_retry_count']).toBe(2);
    const lines = logs.filter((l) => l.level === 'WARNING' && l.message.startsWith('File (store-error)')).map((l) => l.message);
    expect(lines).toHaveLength(2);
    // The two downloads run at once: their lines come in either order.
    const first = lines.find((line) => line.includes(`<GET ${urls[0]!}>`));
    expect(first).toMatch(new RegExp(`^File \\(store-error\\): Error storing file from <GET ${urls[0]!.replace(/[.?]/g, '\\$&')}> referred in <None>: Could not store ${blocked}/full/${sha1(urls[0]!)}\\.pdf: `));
    expect(stats['file_store_error_count']).toBe(2);
  });

  it('tries a store that failed again, and the file is stored', async () => {
    newStore();
    const url = site.url('/docs/report.pdf');
    const { items, stats, logs } = await runCrawl(itemsSpider([{ file_urls: [url] }]), { ...settingsFor(), ITEM_PIPELINES: new Map([[FailsOncePipeline, 1]]) });
    expect(filesOf(items[0]!)).toEqual([{ url, path: `full/${sha1(url)}.pdf`, checksum: md5(PDF), status: 'downloaded' }]);
    expect(readFileSync(join(store, `full/${sha1(url)}.pdf`))).toEqual(PDF);
    expect(stats['file_store_retry_count']).toBe(1);
    expect(logs.map((l) => l.message)).toContain(`Retrying to store full/${sha1(url)}.pdf (attempt 1 failed: Could not store ${store}/full/${sha1(url)}.pdf: the disk said no)`);
  });

  it('is off without FILES_STORE', async () => {
    const { items } = await runCrawl(itemsSpider([{ file_urls: [site.url('/docs/notes.txt')] }]), { ITEM_PIPELINES: { FilesPipeline: 1 } });
    expect(items[0]!['files']).toBeUndefined();
    expect(site.hits).toEqual([]);
  });
});
