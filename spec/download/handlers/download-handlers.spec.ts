/**
 * DOWNLOAD_HANDLERS in a crawl: a spider's own handler for a new scheme, a
 * scheme turned off, a handler that fails, its close() at the end, and the
 * settings errors a wrong value gives.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { Response, Spider, crawl, type Request, type Settings } from '../../../src/index.js';
import type { Crawler } from '../../../src/contracts/crawler.js';
import type { LogEvent } from '../../../src/log/index.js';
import { startSite, type TestSite } from '../../helpers/site-server.js';

let site: TestSite;
let dir: string;
beforeAll(async () => {
  site = await startSite({ '/': '<html><body><p>from http</p></body></html>' });
  dir = mkdtempSync(join(tmpdir(), 'seine-handlers-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Answers memo://<text> with <p><text></p>; counts what it was asked and whether it was closed. */
class MemoHandler {
  static built = 0;
  static closed = 0;
  readonly greeting: string;
  static fromCrawler(crawler: Crawler): MemoHandler {
    MemoHandler.built++;
    return new MemoHandler((crawler.settings as Settings).get('MEMO_GREETING') as string);
  }
  constructor(greeting: string) {
    this.greeting = greeting;
  }
  async downloadRequest(request: Request): Promise<Response> {
    const text = decodeURIComponent(request.url.slice('memo://'.length));
    if (text === 'fail') throw new Error('the memo is lost');
    return new Response({ url: request.url, status: 200, headers: { 'Content-Type': 'text/html' }, body: `<p>${this.greeting} ${text}</p>` });
  }
  close(): void {
    MemoHandler.closed++;
  }
}

function spiderOf(urls: string[]) {
  return class Reader extends Spider {
    static override name = 'reader';
    override startUrls = urls;
    override *parse(response: Response) {
      yield { url: response.url, p: response.css('p::text').get(), request: response.request?.url ?? null };
    }
  };
}

async function run(urls: string[], settings: Record<string, unknown>) {
  const crawlRun = crawl(spiderOf(urls), { settings: { TELNETCONSOLE_ENABLED: false, LOG_LEVEL: 'DEBUG', MEMO_GREETING: 'hello', ...settings } });
  const [items, logs] = await Promise.all([lastValueFrom(crawlRun.items$.pipe(toArray())), lastValueFrom(crawlRun.logs$.pipe(toArray()))]);
  return { items, logs: logs as LogEvent[], stats: crawlRun.stats!.getAll() };
}

const lines = (logs: LogEvent[], level: string) => logs.filter((l) => l.level === level).map((l) => l.message.split('\n')[0]!);

describe('DOWNLOAD_HANDLERS', () => {
  it("crawls a new scheme through the spider's own handler class, built once with the crawl's settings and closed at the end", async () => {
    MemoHandler.built = MemoHandler.closed = 0;
    const { items, stats } = await run(['memo://one', 'memo://two', site.url('/')], { DOWNLOAD_HANDLERS: { memo: MemoHandler } });
    expect((items as Array<Record<string, unknown>>).sort((a, b) => String(a['url']).localeCompare(String(b['url'])))).toEqual([
      { url: site.url('/'), p: 'from http', request: site.url('/') },
      { url: 'memo://one', p: 'hello one', request: 'memo://one' },
      { url: 'memo://two', p: 'hello two', request: 'memo://two' },
    ]);
    expect([MemoHandler.built, MemoHandler.closed, stats['finish_reason']]).toEqual([1, 1, 'finished']);
  });

  it('file: null refuses a file URL with one WARNING line and a request_dropped, and the crawl goes on', async () => {
    const path = join(dir, 'page.html');
    writeFileSync(path, '<p>from a file</p>');
    const fileUrl = pathToFileURL(path).href;
    const { items, logs, stats } = await run([fileUrl, site.url('/')], { DOWNLOAD_HANDLERS: { file: null } });
    expect(items).toEqual([{ url: site.url('/'), p: 'from http', request: site.url('/') }]);
    expect(lines(logs, 'WARNING')).toEqual([`Dropped <GET ${fileUrl}>: Unsupported URL scheme 'file': DOWNLOAD_HANDLERS turns it off (file: null)`]);
    expect([stats['request_dropped/ignored'], stats['finish_reason']]).toEqual([1, 'finished']);
  });

  it('a handler that throws gives the usual download error for that request; the crawl goes on', async () => {
    const { items, logs, stats } = await run(['memo://fail', 'memo://ok'], { DOWNLOAD_HANDLERS: { memo: MemoHandler } });
    expect(items).toEqual([{ url: 'memo://ok', p: 'hello ok', request: 'memo://ok' }]);
    expect(lines(logs, 'ERROR')).toEqual(['Error downloading <GET memo://fail>: the memo is lost']);
    expect([stats['downloader/exception_count'], stats['finish_reason']]).toEqual([1, 'finished']);
  });

  it('a handler that gives something other than a Response fails that request, naming the handler', async () => {
    class Sloppy {
      async downloadRequest(): Promise<unknown> {
        return { status: 200 };
      }
    }
    const { items, logs } = await run(['memo://x'], { DOWNLOAD_HANDLERS: { memo: Sloppy } });
    expect(items).toEqual([]);
    expect(lines(logs, 'ERROR')).toEqual(['Error downloading <GET memo://x>: Sloppy.downloadRequest() gave {"status":200} for <GET memo://x>, not a Response']);
  });

  it('an unknown built-in name or a value that is not a handler class is a one-line settings error', async () => {
    const unknownName = crawl(spiderOf(['memo://x']), { settings: { TELNETCONSOLE_ENABLED: false, DOWNLOAD_HANDLERS: { memo: 'MemoHandler' } } });
    await expect(lastValueFrom(unknownName.items$.pipe(toArray()))).rejects.toThrow(
      "Unknown download handler 'MemoHandler' for the 'memo' scheme in DOWNLOAD_HANDLERS: use a built-in name (HttpDownloadHandler, H2DownloadHandler, FileDownloadHandler, DataDownloadHandler), a class, or null to turn the scheme off",
    );
    const notClass = crawl(spiderOf(['memo://x']), { settings: { TELNETCONSOLE_ENABLED: false, DOWNLOAD_HANDLERS: { memo: 42 } } });
    await expect(lastValueFrom(notClass.items$.pipe(toArray()))).rejects.toThrow(
      "DOWNLOAD_HANDLERS['memo'] must be a download handler class (with a downloadRequest(request, spider) method), a built-in name or null, not 42",
    );
  });

  it('a scheme no handler downloads is UnsupportedSchemeError, as before', async () => {
    const { logs } = await run(['ftp://127.0.0.1/x'], {});
    expect(lines(logs, 'ERROR')).toEqual(["Error downloading <GET ftp://127.0.0.1/x>: Unsupported URL scheme 'ftp' in ftp://127.0.0.1/x: seine downloads http, https, file and data URLs."]);
  });
});
