import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { CloseSpider, DontCloseSpider, IgnoreRequest, Request, Spider, crawl, type CrawlEvent, type Response } from '../../src/index.js';
import type { LogEvent } from '../../src/log/index.js';
import { QUIET, linksPage, quotesSite, runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

/**
 * The crawl's lifecycle when components misbehave: every close step runs,
 * an openSpider failure closes what opened, CloseSpider from every place
 * closes with its reason, spider_idle with DontCloseSpider keeps a crawl
 * open, and request_dropped names every dropped request.
 */

let site: TestSite;
let dir: string;
beforeAll(async () => {
  site = await startSite({
    ...quotesSite(3),
    '/a': linksPage(['/b', '/c', '/a']),
    '/b': '<p>b</p>',
    '/c': '<p>c</p>',
    '/extra/1': '<p>extra 1</p>',
    '/extra/2': '<p>extra 2</p>',
    '/robots.txt': 'User-agent: *\nDisallow: /private\n',
    '/private': '<p>secret</p>',
  });
  dir = mkdtempSync(join(tmpdir(), 'seine-lifecycle-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

function pagesSpider(name = 'pages') {
  return class Pages extends Spider {
    static override name = name;
    override startUrls = [site.url('/page/1/')];
    override *parse(response: Response) {
      for (const text of response.css('span.text::text').getall()) yield { text };
      const next = response.css('li.next a::attr(href)').get();
      if (next !== null) yield response.follow(next, this.parse);
    }
  };
}

/** Runs a crawl to its end through crawl(): its items, log lines, events, and the error its streams ended with. */
async function runFully(spiderClass: Parameters<typeof crawl>[0], settings: Record<string, unknown> = {}, options?: Parameters<typeof crawl>[1]) {
  const run = crawl(spiderClass, { settings: { ...QUIET, ...settings }, ...options });
  const logs = lastValueFrom(run.logs$.pipe(toArray())).catch(() => [] as LogEvent[]);
  const logged: LogEvent[] = [];
  const events: CrawlEvent[] = [];
  run.logs$.subscribe({ next: (l) => logged.push(l), error: () => {} });
  run.events$.subscribe({ next: (e) => events.push(e), error: () => {} });
  let error: unknown = null;
  try {
    await lastValueFrom(run.items$.pipe(toArray()));
  } catch (thrown) {
    error = thrown;
  }
  await logs;
  const stats = run.stats?.getAll() ?? {};
  return { lines: logged.map((l) => `${l.level}: ${l.message.split('\n')[0]!}`), events, error, stats };
}

describe('closing: every step runs', () => {
  it('a pipeline whose closeSpider throws: the feed is still written, the stats dumped, `Spider closed` logged, the failure named', async () => {
    class Exploding {
      processItem(item: Record<string, unknown>) {
        return item;
      }
      closeSpider() {
        throw new Error('database went away');
      }
    }
    class Later {
      closed = false;
      processItem(item: Record<string, unknown>) {
        return item;
      }
      closeSpider() {
        laterClosed = true;
      }
    }
    let laterClosed = false;
    const out = join(dir, 'close-throws.json');
    const result = await runFully(pagesSpider(), { ITEM_PIPELINES: new Map<unknown, number>([[Exploding, 100], [Later, 200]]) }, { feeds: [{ path: out, format: 'json', overwrite: true }] });
    expect(result.error).toBeNull();
    expect(result.lines).toContain('ERROR: Exploding.closeSpider failed while closing the spider: database went away');
    expect(laterClosed).toBe(true);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(6);
    expect(readdirSync(dir).filter((f) => f.includes('seine-tmp'))).toEqual([]);
    expect(result.stats['finish_reason']).toBe('finished');
    expect(result.stats['item_scraped_count']).toBe(6);
    expect(result.lines).toContain('INFO: Spider closed (finished)');
    expect(result.lines.some((l) => l.startsWith('INFO: Dumping seine stats'))).toBe(true);
  });

  it("an openSpider that throws stops the crawl naming the component, and closes what had opened", async () => {
    const calls: string[] = [];
    class First {
      processItem(item: Record<string, unknown>) {
        return item;
      }
      openSpider() {
        calls.push('first open');
      }
      closeSpider() {
        calls.push('first close');
      }
    }
    class Broken {
      processItem(item: Record<string, unknown>) {
        return item;
      }
      openSpider() {
        throw new Error('cannot reach the database at 127.0.0.1:1');
      }
      closeSpider() {
        calls.push('broken close');
      }
    }
    class Never {
      processItem(item: Record<string, unknown>) {
        return item;
      }
      openSpider() {
        calls.push('never open');
      }
    }
    site.reset();
    const result = await runFully(pagesSpider(), { ITEM_PIPELINES: new Map<unknown, number>([[First, 100], [Broken, 200], [Never, 300]]) });
    expect((result.error as Error).message).toBe('Cannot open the crawl: Broken.openSpider failed: cannot reach the database at 127.0.0.1:1');
    expect((result.error as { code?: string }).code).toBe('SEINE_CRAWL_FAILED');
    expect(calls).toEqual(['first open', 'first close']);
    expect(site.hits.filter((path) => path !== '/robots.txt')).toEqual([]);
    expect(result.lines).toContain('INFO: Spider closed (open_failed)');
  });
});

describe('a fault of the engine itself', () => {
  it('ends the crawl cleanly: what was scraped is in the feed, the stats are dumped, the streams end with CrawlFailedError', async () => {
    const queue: Request[] = [];
    let handedOut = 0;
    const brokenScheduler = {
      enqueue(request: Request) {
        queue.push(request);
        return true;
      },
      next() {
        if (handedOut === 2) throw new Error('queue file unreadable');
        const request = queue.pop();
        if (request !== undefined) handedOut++;
        return request;
      },
      hasPending: () => queue.length > 0,
      open: async () => undefined,
      close: async () => undefined,
    };
    const out = join(dir, 'engine-fault.jsonl');
    const result = await runFully(pagesSpider('fault'), {}, { feeds: [{ path: out, format: 'jsonlines', overwrite: true }], parts: { createScheduler: () => brokenScheduler } });
    expect((result.error as Error).message).toBe('The engine failed: queue file unreadable — the crawl stopped; feeds were finalised and stats dumped');
    expect(result.stats['finish_reason']).toBe('engine_error');
    expect(result.lines).toContain('INFO: Spider closed (engine_error)');
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(result.stats['item_scraped_count'] as number);
    expect(result.stats['item_scraped_count']).toBeGreaterThanOrEqual(2);
  });

  it('a package that cannot be loaded stops the crawl with one line that says to reinstall; what was scraped stays in the feed', async () => {
    const { DependencyMissingError } = await import('../../src/index.js');
    class StartItem extends Spider {
      static override name = 'start-item';
      override async *start() {
        yield { from: 'start' };
        yield new Request(site.url('/page/1/'));
        yield new Request(site.url('/page/2/'));
      }
    }
    let downloads = 0;
    const missing = new DependencyMissingError('got', 'downloading pages', new Error("Cannot find package 'got' imported from /x/chunk.js\n    at packageResolve"));
    const brokenFetch = Object.assign(
      async (): Promise<never> => {
        downloads++;
        throw missing;
      },
      { warmUp: () => Promise.reject(missing) },
    );
    const out = join(dir, 'missing-got.jsonl');
    const result = await runFully(StartItem, {}, { feeds: [{ path: out, format: 'jsonlines', overwrite: true }], parts: { createFetch: () => brokenFetch } });
    expect((result.error as Error).message).toBe(
      "The package 'got', needed for downloading pages, could not be loaded (Cannot find package 'got' imported from /x/chunk.js): reinstall the project's packages (npm install) — the crawl stopped; feeds were finalised and stats dumped",
    );
    expect(downloads).toBe(0);
    expect(result.stats['finish_reason']).toBe('engine_error');
    expect(result.lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
    expect(readFileSync(out, 'utf8')).toBe('{"from": "start"}\n');
  });

  it('a pipeline that meets a missing package stops the crawl instead of failing every item', async () => {
    const { loadDependency } = await import('../../src/errors/dependency-missing-error.js');
    let calls = 0;
    class NeedsPackage {
      processItem(item: Record<string, unknown>) {
        if (++calls === 1) return item;
        return loadDependency('left-pad-for-tests', 'padding', () => {
          throw new Error("Cannot find module 'left-pad-for-tests'");
        });
      }
    }
    const out = join(dir, 'missing-in-pipeline.jsonl');
    const result = await runFully(pagesSpider('needs-package'), { ITEM_PIPELINES: new Map<unknown, number>([[NeedsPackage, 300]]) }, {
      feeds: [{ path: out, format: 'jsonlines', overwrite: true }],
    });
    expect((result.error as Error).message).toMatch(/^The package 'left-pad-for-tests', needed for padding, could not be loaded \(Cannot find module 'left-pad-for-tests'\): reinstall/);
    expect(result.stats['finish_reason']).toBe('engine_error');
    expect(result.stats['item_scraped_count']).toBe(1);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(1);
    expect(result.lines.some((line) => line.includes('Error processing'))).toBe(false);
  });

  it('a download slot that throws for one request costs that request only', async () => {
    const { DownloadSlots } = await import('../../src/throttle/index.js');
    class Two extends Spider {
      static override name = 'two-slots';
      override startUrls = [site.url('/b'), site.url('/c')];
      override parse(response: Response) {
        return { url: new URL(response.url).pathname };
      }
    }
    const result = await runFully(Two, {}, {
      parts: {
        createSlots: (crawler) => {
          const slots = DownloadSlots.fromCrawler(crawler);
          const canStart = slots.canStart.bind(slots);
          slots.canStart = (request, now) => {
            if (request.url.endsWith('/b')) throw new Error('slot table corrupted');
            return canStart(request, now);
          };
          return slots;
        },
      },
    });
    expect(result.error).toBeNull();
    expect(result.stats['item_scraped_count']).toBe(1);
    expect(result.lines).toContain(`ERROR: Error in the throttle stage for <GET ${site.url('/b')}>: slot table corrupted`);
    expect(result.stats['engine_errors/throttle']).toBe(1);
    const dropped = result.events.flatMap((e) => (e.type === 'request_dropped' ? [`${e.reason} ${new URL(e.request.url).pathname}`] : []));
    expect(dropped).toEqual(['error /b']);
  });
});

describe('an observer of crawler.events$ that throws', () => {
  it('is one ERROR line and a stat, and the crawl goes on (RxJS would rethrow it from a timer and end the process)', async () => {
    class Nosy {
      static fromCrawler(crawler: import('../../src/index.js').Crawler) {
        crawler.events$.subscribe((event) => {
          if (event.type === 'response_received') throw new Error('nosy extension broke');
        });
        return new Nosy();
      }
    }
    const result = await runFully(pagesSpider('nosy'), { EXTENSIONS: new Map<unknown, number>([[Nosy, 500]]) });
    expect(result.error).toBeNull();
    expect(result.stats['item_scraped_count']).toBe(6);
    expect(result.lines.filter((line) => line.startsWith('ERROR'))).toEqual(Array(3).fill('ERROR: Error in an observer of crawler.events$: nosy extension broke'));
    expect(result.stats['observer_errors']).toBe(3);
    expect(result.lines.at(-1)).toBe('INFO: Spider closed (finished)');
  });
});

describe('CloseSpider closes the crawl with its reason', () => {
  const expectClosedWith = (result: { stats: Record<string, unknown>; lines: string[] }, reason: string) => {
    expect(result.stats['finish_reason']).toBe(reason);
    expect(result.lines).toContain(`INFO: Closing spider (${reason})`);
    expect(result.lines).toContain(`INFO: Spider closed (${reason})`);
    expect(Object.keys(result.stats).filter((k) => k.startsWith('spider_exceptions'))).toEqual([]);
    expect(result.lines.filter((l) => l.startsWith('ERROR'))).toEqual([]);
  };

  it('from a callback', async () => {
    class Enough extends Spider {
      static override name = 'enough';
      override startUrls = [site.url('/page/1/')];
      override *parse(response: Response) {
        yield { url: response.url };
        yield response.follow('/page/2/', this.parse);
        throw new CloseSpider('enough');
      }
    }
    const result = await runFully(Enough);
    expectClosedWith(result, 'enough');
    expect(result.stats['item_scraped_count']).toBe(1);
  });

  it('from an errback', async () => {
    class FromErrback extends Spider {
      static override name = 'from-errback';
      override async *start() {
        yield new Request(site.url('/missing'), {
          errback: () => {
            throw new CloseSpider('errback said so');
          },
        });
      }
    }
    expectClosedWith(await runFully(FromErrback), 'errback said so');
  });

  it('from start()', async () => {
    class FromStart extends Spider {
      static override name = 'from-start';
      override async *start() {
        yield new Request(site.url('/b'), { callback: () => ({ page: 'b' }) });
        throw new CloseSpider('start had enough');
      }
    }
    expectClosedWith(await runFully(FromStart), 'start had enough');
  });

  it('from an item pipeline', async () => {
    class Limit {
      seen = 0;
      processItem(item: Record<string, unknown>) {
        if (++this.seen === 3) throw new CloseSpider('three is plenty');
        return item;
      }
    }
    const result = await runFully(pagesSpider(), { ITEM_PIPELINES: new Map<unknown, number>([[Limit, 100]]) });
    expectClosedWith(result, 'three is plenty');
  });

  it('from a downloader middleware', async () => {
    class Stop {
      processRequest(request: Request) {
        if (request.url.endsWith('/page/2/')) throw new CloseSpider('middleware stop');
        return null;
      }
    }
    const result = await runFully(pagesSpider(), { DOWNLOADER_MIDDLEWARES: new Map<unknown, number>([[Stop, 543]]) });
    expectClosedWith(result, 'middleware stop');
    expect(result.stats['item_scraped_count']).toBe(2);
  });
});

describe('spider_idle and DontCloseSpider', () => {
  it('a handler that adds requests and throws DontCloseSpider keeps the crawl open; the added requests are crawled', async () => {
    let idles = 0;
    class Idle extends Spider {
      static override name = 'idle';
      override startUrls = [site.url('/b')];
      override async *start() {
        this.crawler!.signals.connect('spider_idle', () => {
          idles++;
          if (idles > 2) return;
          this.crawler!.engine.crawl(new Request(site.url(`/extra/${idles}`), { callback: this.parse }));
          throw new DontCloseSpider();
        });
        yield* super.start();
      }
      override parse(response: Response) {
        return { text: response.css('p::text').get() };
      }
    }
    const result = await runCrawl(Idle);
    expect(result.items).toEqual([{ text: 'b' }, { text: 'extra 1' }, { text: 'extra 2' }]);
    expect(idles).toBe(3);
    expect(result.reason).toBe('finished');
  });

  it('a CloseSpider from a spider_idle handler closes with its reason', async () => {
    class IdleClose extends Spider {
      static override name = 'idle-close';
      override startUrls = [site.url('/b')];
      override async *start() {
        this.crawler!.signals.connect('spider_idle', () => {
          throw new CloseSpider('nothing left upstream');
        });
        yield* super.start();
      }
      override parse() {
        return { ok: true };
      }
    }
    const result = await runCrawl(IdleClose);
    expect(result.reason).toBe('nothing left upstream');
    expect(result.items).toEqual([{ ok: true }]);
  });
});

describe('request_dropped', () => {
  it('is emitted with its reason for duplicates, offsite links, robots.txt and requests yielded after close', async () => {
    class Dropping extends Spider {
      static override name = 'dropping';
      override allowedDomains = ['127.0.0.1'];
      override startUrls = [site.url('/a')];
      override *parse(response: Response) {
        yield* response.followAll(response.css('a'), this.parse); // /b, /c, and /a again: a duplicate
        yield new Request('http://localhost:1/elsewhere'); // offsite
        yield new Request(site.url('/private')); // robots.txt forbids it
        if (response.url.endsWith('/b')) {
          yield new Request(site.url('/extra/1'));
          throw new CloseSpider('stop');
        }
      }
    }
    const result = await runFully(Dropping, { ROBOTSTXT_OBEY: true, CONCURRENT_REQUESTS: 1 });
    const dropped = result.events.flatMap((e) => (e.type === 'request_dropped' ? [`${e.reason} ${new URL(e.request.url).pathname}`] : []));
    expect(dropped).toContain('duplicate /a');
    expect(dropped).toContain('offsite /elsewhere');
    expect(dropped).toContain('robots /private');
    expect(dropped).toContain('closing /extra/1');
  });
});

describe('IgnoreRequest', () => {
  it('from a middleware is a request_dropped with reason ignored', async () => {
    class Ignore {
      processRequest(request: Request) {
        if (request.url.endsWith('/c')) throw new IgnoreRequest('not today');
        return null;
      }
    }
    class Two extends Spider {
      static override name = 'two';
      override startUrls = [site.url('/b'), site.url('/c')];
      override parse(response: Response) {
        return { url: response.url };
      }
    }
    const result = await runFully(Two, { DOWNLOADER_MIDDLEWARES: new Map<unknown, number>([[Ignore, 543]]) });
    const dropped = result.events.flatMap((e) => (e.type === 'request_dropped' ? [`${e.reason} ${new URL(e.request.url).pathname}`] : []));
    expect(dropped).toEqual(['ignored /c']);
  });
});
