import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { LogBus } from '../../../src/log/index.js';
import { RetryAfterMiddleware, RETRY_AFTER_MAX_SECONDS } from '../../../src/middlewares/downloader/retry-after.js';
import { RetryMiddleware } from '../../../src/middlewares/downloader/retry.js';
import { MemoryStatsCollector } from '../../../src/stats/memory-stats-collector.js';
import { DownloadSlots } from '../../../src/throttle/download-slots.js';
import { recordLogs, TestSpider } from '../../helpers/fake-crawler.js';

function setup(now: number) {
  const slots = new DownloadSlots();
  const stats = new MemoryStatsCollector();
  const logBus = new LogBus();
  const log = recordLogs(logBus);
  const clock = { now };
  const middleware = new RetryAfterMiddleware({ slots: () => slots, stats, logBus, now: () => clock.now });
  const answer = (url: string, status: number, retryAfter?: string, meta: Record<string, unknown> = {}): Response => {
    const request = new Request(url, { meta });
    const headers: Record<string, string> = retryAfter === undefined ? {} : { 'Retry-After': retryAfter };
    return middleware.processResponse(request, new Response({ url, status, headers, body: Buffer.alloc(0), request }));
  };
  return { slots, stats, log, clock, answer };
}

describe('RetryAfterMiddleware', () => {
  it('pauses the slot of a 429 or 503 with Retry-After, and passes the response on unchanged', () => {
    const { slots, stats, answer } = setup(10_000);
    const response = answer('http://a.com/1', 429, '3');
    expect(response.status).toBe(429);
    expect(slots.canStart(new Request('http://a.com/2'), 10_000)).toBe(3000);
    expect(slots.canStart(new Request('http://b.com/2'), 10_000)).toBe(true);
    answer('http://b.com/1', 503, '1', { download_slot: 'api' });
    expect(slots.canStart(new Request('http://x.com/', { meta: { download_slot: 'api' } }), 10_000)).toBe(1000);
    expect(stats.get('throttle/slot_paused')).toBe(2);
  });

  it('reads an HTTP date', () => {
    const now = Date.UTC(2024, 0, 1, 0, 0, 0);
    const { slots, answer } = setup(now);
    answer('http://a.com/1', 503, 'Mon, 01 Jan 2024 00:00:05 GMT');
    expect(slots.canStart(new Request('http://a.com/2'), now)).toBe(5000);
  });

  it('ignores other statuses, a missing or unreadable Retry-After, and 0', () => {
    const { slots, stats, answer } = setup(0);
    answer('http://a.com/1', 500, '5');
    answer('http://a.com/1', 429);
    answer('http://a.com/1', 429, 'soon');
    answer('http://a.com/1', 503, '0');
    expect(slots.canStart(new Request('http://a.com/2'), 0)).toBe(true);
    expect(stats.get('throttle/slot_paused')).toBeUndefined();
  });

  it('logs one line per pause, not one per response of a burst that hits it', () => {
    const { log, stats, clock, answer } = setup(0);
    answer('http://a.com/1', 429, '2');
    clock.now = 100;
    answer('http://a.com/2', 429, '2');
    expect(log.textLines()).toEqual([
      'WARNING [seine.downloadermiddlewares.retryafter] Pausing download slot a.com for 2 s: <GET http://a.com/1> got 429 with Retry-After: 2',
    ]);
    expect(stats.get('throttle/slot_paused')).toBe(1);
    clock.now = 5000;
    answer('http://a.com/3', 429, '1');
    expect(log.textLines()).toHaveLength(2);
  });

  it(`cuts an absurd Retry-After to ${RETRY_AFTER_MAX_SECONDS} s and says so`, () => {
    const { slots, log, answer } = setup(0);
    answer('http://a.com/1', 429, '86400');
    expect(slots.canStart(new Request('http://a.com/2'), 0)).toBe(RETRY_AFTER_MAX_SECONDS * 1000);
    expect(log.textLines()[0]).toBe(
      'WARNING [seine.downloadermiddlewares.retryafter] Pausing download slot a.com for 600 s: <GET http://a.com/1> got 429 with Retry-After: 86400 (it asked for 86400 s, more than the 600 s seine waits at most)',
    );
  });
});

describe('RetryMiddleware next to a paused slot', () => {
  it('adds no Retry-After wait of its own when the slot is already paused that long (the wait would count twice under Redis)', () => {
    const slots = new DownloadSlots();
    const now = () => 50_000;
    const retry = new RetryMiddleware({ backoffBase: 0, slots: () => slots, now });
    const pauser = new RetryAfterMiddleware({ slots: () => slots, now });
    const request = new Request('http://a.com/1');
    const refused = (): Response => new Response({ url: request.url, status: 429, headers: { 'Retry-After': '3' }, body: Buffer.alloc(0), request });
    const unpaused = retry.processResponse(request, refused(), new TestSpider()) as Request;
    expect(unpaused.meta['retry_delay_ms']).toBe(3000);
    pauser.processResponse(request, refused());
    const paused = retry.processResponse(request, refused(), new TestSpider()) as Request;
    expect(paused.meta['retry_delay_ms'] ?? 0).toBe(0);
    expect(slots.canStart(paused, 50_000)).toBe(3000);
  });
});
