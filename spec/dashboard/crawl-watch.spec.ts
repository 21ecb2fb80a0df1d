/**
 * CrawlWatch, the dashboard's view of a crawl, fed events by hand with a
 * fixed clock: the rates of the charts, statuses, per-slot responses,
 * bans, latency and waiting requests, the errors and the log tail.
 */
import { describe, expect, it } from '@jest/globals';
import { CrawlWatch } from '../../src/dashboard/crawl-watch.js';
import { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';

function setup(): { crawler: ReturnType<typeof fakeCrawler>; watch: CrawlWatch; advance(seconds: number): void } {
  let now = 1_000_000;
  const crawler = fakeCrawler();
  const watch = new CrawlWatch(crawler, () => now);
  return { crawler, watch, advance: (seconds) => (now += seconds * 1000) };
}

function answer(crawler: ReturnType<typeof fakeCrawler>, url: string, status: number, latency?: number): Request {
  const request = new Request(url);
  if (latency !== undefined) request.meta['download_latency'] = latency;
  crawler.emit({ type: 'request_scheduled', request });
  crawler.emit({ type: 'request_reached_downloader', request });
  crawler.emit({ type: 'response_received', request, response: new Response({ url, status, request }) });
  return request;
}

describe('CrawlWatch', () => {
  it('charts pages, items and errors per minute over the last 10 seconds', () => {
    const { crawler, watch, advance } = setup();
    watch.tick();
    for (let second = 1; second <= 12; second++) {
      advance(1);
      answer(crawler, `http://a.test/${second}`, 200);
      answer(crawler, `http://a.test/${second}b`, 200);
      crawler.emit({ type: 'item_scraped', item: { n: second }, response: null });
      watch.tick();
    }
    const { series, totals } = watch.snapshot();
    expect(series.t).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // 2 pages and 1 item a second: 120 pages/min and 60 items/min, from the first second on.
    expect(series.pages).toEqual([0, ...Array<number>(12).fill(120)]);
    expect(series.items).toEqual([0, ...Array<number>(12).fill(60)]);
    expect(series.errors).toEqual(Array<number>(13).fill(0));
    expect(totals).toEqual({ requests: 24, responses: 24, items: 12, errors: 0 });
    // Nothing more for 10 s: the rates come down to 0.
    advance(10);
    watch.tick();
    expect(watch.snapshot().series.pages.at(-1)).toBe(0);
  });

  it('counts statuses, and per slot responses, 429/403 bans, latency and requests still waiting', () => {
    const { crawler, watch } = setup();
    answer(crawler, 'http://a.test/1', 200, 0.2);
    answer(crawler, 'http://a.test/2', 429, 0.4);
    answer(crawler, 'http://b.test/1', 403);
    answer(crawler, 'http://b.test/2', 403);
    const queued = new Request('http://b.test/3');
    crawler.emit({ type: 'request_scheduled', request: queued });
    crawler.emit({ type: 'request_scheduled', request: new Request('http://b.test/4') });
    crawler.emit({ type: 'request_dropped', request: queued, reason: 'closing' });
    const snapshot = watch.snapshot();
    expect(snapshot.statuses).toEqual({ '200': 1, '403': 2, '429': 1 });
    const slots = Object.fromEntries(snapshot.slots.map((slot) => [slot.key, slot]));
    expect(slots['a.test']).toMatchObject({ responses: 2, bans: { '429': 1, '403': 0 }, latencySeconds: 0.24, waiting: 0 });
    expect(slots['b.test']).toMatchObject({ responses: 2, bans: { '429': 0, '403': 2 }, latencySeconds: null, waiting: 1 });
  });

  it('keeps the 20 latest errors, newest first, with their tracebacks, and a log tail from INFO up', () => {
    const { crawler, watch } = setup();
    for (let n = 1; n <= 22; n++) crawler.emit({ type: 'spider_error', error: new TypeError(`bad ${n}`), response: null });
    crawler.emit({ type: 'download_error', request: new Request('http://a.test/x'), error: new Error('ECONNRESET') });
    crawler.logBus.getLogger('seine.test').debug('not shown');
    crawler.logBus.getLogger('seine.test').info('shown');
    const { errors, log, totals } = watch.snapshot();
    expect(totals.errors).toBe(23);
    expect(errors).toHaveLength(20);
    expect(errors[0]).toMatchObject({ kind: 'download_error', url: 'http://a.test/x', message: 'Error: ECONNRESET' });
    expect(errors[1]).toMatchObject({ kind: 'spider_error', url: null, message: 'TypeError: bad 22' });
    expect(errors[1]!.stack).toContain('crawl-watch.spec.ts');
    expect(log.map((line) => `${line.level} ${line.message}`)).toEqual(['INFO shown']);
  });
});
