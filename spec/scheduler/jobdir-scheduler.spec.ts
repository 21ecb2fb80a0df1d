import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Request } from '../../src/http/request.js';
import type { Response } from '../../src/http/response.js';
import { fingerprint } from '../../src/http/fingerprint.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { Spider } from '../../src/contracts/spider.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';
import { linksPage, runCrawl, startSite, type TestSite } from '../helpers/site-server.js';

class PagesSpider extends Spider {
  static override name = 'pages';
  static base = '';

  override async *start() {
    // Not dontFilter: on resume the start page is a duplicate and is not fetched again.
    yield new Request(`${PagesSpider.base}/page/1/`, { callback: this.parsePage });
  }

  *parsePage(response: Response) {
    this.state['pages'] = ((this.state['pages'] as number | undefined) ?? 0) + 1;
    yield { page: response.url.split('/').at(-2) };
    for (const href of response.css('a::attr(href)').getall()) yield response.follow(href, this.parsePage);
  }
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-jobdir-scheduler-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Scheduler with JOBDIR', () => {
  function open(settings: Record<string, unknown> = {}) {
    const spider = new PagesSpider();
    const crawler = fakeCrawler({ JOBDIR: join(dir, 'job'), ...settings }, spider);
    const scheduler = Scheduler.fromCrawler(crawler, { fingerprint });
    void scheduler.open();
    return { spider, crawler, scheduler };
  }

  it('queues on disk, counts scheduler/*/disk, and keeps what is left when the spider closes', () => {
    const { spider, crawler, scheduler } = open();
    for (let n = 1; n <= 3; n++) scheduler.enqueue(new Request(`http://e.com/${n}`, { callback: spider.parsePage }));
    expect(scheduler.enqueue(new Request('http://e.com/1'))).toBe(false);
    scheduler.acknowledge(scheduler.next()!); // http://e.com/3, done
    expect(crawler.stats.getAll()).toMatchObject({
      'scheduler/enqueued/disk': 3, 'scheduler/enqueued': 3, 'scheduler/dequeued/disk': 1, 'scheduler/dequeued': 1, 'dupefilter/filtered': 1,
    });
    expect(scheduler.dropPending()).toEqual([]); // both are kept on disk, none is dropped
    expect(scheduler.hasPending()).toBe(false);
    expect(scheduler.next()).toBeUndefined();
    void scheduler.close('shutdown');
    expect(existsSync(join(dir, 'job', 'requests.seen'))).toBe(true);

    const resumed = open();
    expect(resumed.scheduler.restored).toBe(2);
    expect(resumed.crawler.textLines('seine.core.scheduler')).toEqual(['INFO [seine.core.scheduler] Resuming crawl (2 requests scheduled)']);
    expect(resumed.scheduler.enqueue(new Request('http://e.com/3'))).toBe(false); // seen in the first run
    expect(resumed.scheduler.next()!.url).toBe('http://e.com/2');
    void resumed.scheduler.close('finished');
  });

  it('keeps a request it cannot serialize in memory, warns once and counts scheduler/unserializable; memory pops first', () => {
    const { spider, crawler, scheduler } = open();
    scheduler.enqueue(new Request('http://e.com/disk', { callback: spider.parsePage }));
    scheduler.enqueue(new Request('http://e.com/lambda-1', { callback: () => undefined }));
    scheduler.enqueue(new Request('http://e.com/lambda-2', { callback: () => undefined }));
    expect(crawler.textLines('seine.core.scheduler')).toEqual([
      "WARNING [seine.core.scheduler] Unable to serialize request: <GET http://e.com/lambda-1> - reason: Function 'callback' is not an instance method in: <PagesSpider 'pages'> " +
        '(a request kept in JOBDIR names its callback: pass a spider method such as this.parsePage, not an arrow function or a bound function, and put extra data in cbKwargs) ' +
        '- no more unserializable requests will be logged (stats being collected)',
    ]);
    expect(crawler.stats.getAll()).toMatchObject({ 'scheduler/unserializable': 2, 'scheduler/enqueued/memory': 2, 'scheduler/enqueued/disk': 1 });
    expect([scheduler.next()!.url, scheduler.next()!.url, scheduler.next()!.url]).toEqual(['http://e.com/lambda-2', 'http://e.com/lambda-1', 'http://e.com/disk']);
    void scheduler.close('finished');
  });

  it('stores what a callback yields while the crawl closes, for the next run', () => {
    const { spider, scheduler } = open();
    scheduler.dropPending();
    scheduler.enqueueAfterClose(new Request('http://e.com/late', { callback: spider.parsePage }));
    void scheduler.close('shutdown');
    const resumed = open();
    expect(resumed.scheduler.next()!.url).toBe('http://e.com/late');
    void resumed.scheduler.close('finished');
  });

  it('reads SCHEDULER_DISK_QUEUE: FifoDiskQueue pops in arrival order', () => {
    const { spider, scheduler } = open({ SCHEDULER_DISK_QUEUE: 'scrapy.squeues.PickleFifoDiskQueue' });
    for (let n = 1; n <= 3; n++) scheduler.enqueue(new Request(`http://e.com/${n}`, { callback: spider.parsePage }));
    expect([1, 2, 3].map(() => scheduler.next()!.url)).toEqual(['http://e.com/1', 'http://e.com/2', 'http://e.com/3']);
    void scheduler.close('finished');
  });

  it('refuses an unknown SCHEDULER_DISK_QUEUE', () => {
    expect(() => open({ SCHEDULER_DISK_QUEUE: 'RedisQueue' })).toThrow(
      'Setting SCHEDULER_DISK_QUEUE is "RedisQueue" (from -s SCHEDULER_DISK_QUEUE=RedisQueue), which seine does not know: ' +
        "use 'LifoDiskQueue' (depth-first, the default) or 'FifoDiskQueue' (breadth-first with DEPTH_PRIORITY=1); " +
        "Scrapy's 'PickleLifoDiskQueue', 'PickleFifoDiskQueue' and the Marshal ones work too",
    );
  });
});

describe('a crawl paused and resumed with JOBDIR (in process)', () => {
  const PAGES = 30;
  let site: TestSite;

  beforeAll(async () => {
    const routes: Record<string, string> = {};
    for (let n = 1; n <= PAGES; n++) {
      // Each page links forward twice and back to the first page: plenty of duplicates.
      const links = [n + 1, n + 2].filter((m) => m <= PAGES).map((m) => `/page/${m}/`);
      routes[`/page/${n}/`] = linksPage([...links, '/page/1/']);
    }
    site = await startSite(routes);
    PagesSpider.base = site.url('').replace(/\/$/, '');
  });
  afterAll(() => site.close());

  it('crawls every page exactly once over two runs, and spider.state carries its counter', async () => {
    const jobdir = join(dir, 'crawls', 'run-1');
    const first = await runCrawl(PagesSpider, { JOBDIR: jobdir, CLOSESPIDER_PAGECOUNT: 5, CONCURRENT_REQUESTS: 2 });
    expect(first.reason).toBe('closespider_pagecount');
    expect(first.items.length).toBeLessThan(PAGES);
    expect(first.stats['scheduler/enqueued/disk']).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(jobdir, 'spider.state'), 'utf8'))).toEqual({ pages: first.items.length });
    const left = readFileSync(join(jobdir, 'requests.queue', 'requests.jsonl'), 'utf8').trimEnd().split('\n').filter((line) => line.includes('"request"')).length;
    expect(left).toBeGreaterThan(0);

    const second = await runCrawl(PagesSpider, { JOBDIR: jobdir, CONCURRENT_REQUESTS: 2 });
    expect(second.reason).toBe('finished');
    expect(second.lines).toContain(`Resuming crawl (${left} requests scheduled)`);
    expect(second.stats['scheduler/dequeued/disk']).toBe(second.items.length);

    const pages = [...first.items, ...second.items].map((item) => Number(item['page'])).sort((a, b) => a - b);
    expect(pages).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
    expect(new Set(site.hits).size).toBe(site.hits.length);
    expect(site.hits).toHaveLength(PAGES);
    expect(JSON.parse(readFileSync(join(jobdir, 'spider.state'), 'utf8'))).toEqual({ pages: PAGES });
    expect(readFileSync(join(jobdir, 'requests.queue', 'requests.jsonl'), 'utf8')).toBe('{"start":1}\n'); // no request left; the start is recorded
    expect(readFileSync(join(jobdir, 'requests.seen'), 'utf8').trimEnd().split('\n')).toHaveLength(PAGES);
  }, 30_000);

  it('a resumed run skips the start outputs an earlier run recorded: the start URL is fetched once per job', async () => {
    class StartUrlsSpider extends Spider {
      static override name = 'start-urls';
      override startUrls = [`${PagesSpider.base}/page/1/`];
      override *parse(response: Response) {
        yield { page: response.url.split('/').at(-2) };
        for (const href of response.css('a::attr(href)').getall()) yield response.follow(href);
      }
    }
    const jobdir = join(dir, 'start-urls');
    site.reset();
    const first = await runCrawl(StartUrlsSpider, { JOBDIR: jobdir, CLOSESPIDER_PAGECOUNT: 3, CONCURRENT_REQUESTS: 1 });
    expect(first.reason).toBe('closespider_pagecount');
    const firstHits = [...site.hits];
    site.reset();
    const second = await runCrawl(StartUrlsSpider, { JOBDIR: jobdir, CONCURRENT_REQUESTS: 1 });
    expect(second.reason).toBe('finished');
    expect(second.lines).toContain('Skipping the first 1 output of start(): recorded by an earlier run');
    expect(site.hits).not.toContain('/page/1/'); // not fetched again (Scrapy fetches dontFilter start URLs on every run)
    expect(site.hits.filter((path) => firstHits.includes(path))).toEqual([]);
    expect(new Set([...firstHits, ...site.hits]).size).toBe(PAGES);
  }, 30_000);
});
