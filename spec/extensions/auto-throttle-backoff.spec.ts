import { describe, expect, it } from '@jest/globals';
import { AutoThrottle } from '../../src/extensions/auto-throttle.js';
import { backedOffDelay } from '../../src/extensions/auto-throttle-delay.js';
import { Request } from '../../src/index.js';
import { Response } from '../../src/http/response.js';
import { DownloadSlots } from '../../src/throttle/download-slots.js';
import { fakeCrawler, type FakeCrawler } from '../helpers/fake-crawler.js';

function crawlerWithSlots(settings: Record<string, unknown>): FakeCrawler & { downloadSlots: DownloadSlots } {
  const crawler = fakeCrawler({ AUTOTHROTTLE_ENABLED: true, RANDOMIZE_DOWNLOAD_DELAY: false, ...settings });
  return Object.assign(crawler, { downloadSlots: DownloadSlots.fromCrawler(crawler) });
}

function answer(crawler: FakeCrawler & { downloadSlots: DownloadSlots }, url: string, status: number, latency: number): void {
  const request = new Request(url);
  crawler.downloadSlots.started(request, 0);
  request.meta['download_latency'] = latency;
  crawler.emit({ type: 'response_downloaded', request, response: new Response({ url, status, body: Buffer.alloc(0), request }) });
  crawler.downloadSlots.finished(request, 0);
}

describe('AutoThrottle after a 429 or 503', () => {
  it('doubles the delay, from at least the start delay, up to AUTOTHROTTLE_MAX_DELAY', () => {
    const limits = { targetConcurrency: 1, minDelay: 0, maxDelay: 10 };
    expect(backedOffDelay(0, 1, limits)).toBe(1);
    expect(backedOffDelay(3, 1, limits)).toBe(6);
    expect(backedOffDelay(6, 1, limits)).toBe(10);
  });

  it('backs a slot off on fast 429s where latency alone would have kept it where it was, and comes down again on 200s', () => {
    const crawler = crawlerWithSlots({ AUTOTHROTTLE_START_DELAY: 0.5, AUTOTHROTTLE_MAX_DELAY: 8 });
    AutoThrottle.fromCrawler(crawler);
    crawler.emit({ type: 'spider_opened', spider: crawler.spider });
    const delays: number[] = [];
    for (const status of [429, 429, 503, 429, 429, 200, 200]) {
      answer(crawler, 'http://a.com/', status, 0.01);
      delays.push(crawler.downloadSlots.slot('a.com')!.delayMs);
    }
    expect(delays.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(delays[5]).toBeCloseTo(4005, 0);
    expect(delays[6]).toBeLessThan(delays[5]!);
  });

  it("never lowers a slot below its DOWNLOAD_SLOTS delay, and leaves its rate alone", () => {
    const crawler = crawlerWithSlots({ AUTOTHROTTLE_START_DELAY: 0, AUTOTHROTTLE_MAX_DELAY: 1, DOWNLOAD_SLOTS: { 'a.com': { delay: 3, rate: '1/s' } } });
    AutoThrottle.fromCrawler(crawler);
    crawler.emit({ type: 'spider_opened', spider: crawler.spider });
    answer(crawler, 'http://a.com/', 200, 0.001);
    expect(crawler.downloadSlots.slot('a.com')!.delayMs).toBe(3000);
    answer(crawler, 'http://a.com/', 429, 0.001);
    expect(crawler.downloadSlots.slot('a.com')!.delayMs).toBe(3000);
    expect(crawler.downloadSlots.slot('a.com')!.rateIntervalMs).toBe(1000);
    answer(crawler, 'http://b.com/', 200, 0.001);
    expect(crawler.downloadSlots.slot('b.com')!.delayMs).toBeLessThan(5); // the latency, not a's floor
  });
});
