import { describe, expect, it } from '@jest/globals';
import { Request } from '../../../src/http/request.js';
import { getRetryRequest } from '../../../src/middlewares/downloader/retry-request.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

const LOGGER = 'seine.downloadermiddlewares.retry';
const URL = 'http://127.0.0.1:8000/a';

describe('getRetryRequest', () => {
  it("reads the spider's crawler for settings, stats and logs", () => {
    const crawler = fakeCrawler({ RETRY_TIMES: 1, RETRY_PRIORITY_ADJUST: -3, RETRY_BACKOFF_BASE: 4, RETRY_BACKOFF_MAX: 5 });
    const request = new Request(URL);
    const retry = getRetryRequest(request, { spider: crawler.spider, reason: 'empty page', random: () => 0.5 });
    expect([retry?.priority, retry?.meta.retry_times, retry?.meta.retry_delay_ms, retry?.dontFilter]).toEqual([-3, 1, 4000, true]);
    expect(getRetryRequest(retry!, { spider: crawler.spider, reason: 'empty page' })).toBeNull();
    expect(crawler.lines(LOGGER)).toEqual([
      [LOGGER, 'DEBUG', `Retrying <GET ${URL}> (failed 1 times): empty page`],
      [LOGGER, 'ERROR', `Gave up retrying <GET ${URL}> (failed 2 times): empty page`],
    ]);
    expect(crawler.stats.getAll()).toEqual({ 'retry/count': 1, 'retry/reason_count/empty page': 1, 'retry/max_reached': 1 });
  });

  it("gives the spider to the log events' extra", () => {
    const crawler = fakeCrawler();
    getRetryRequest(new Request(URL), { spider: crawler.spider });
    expect(crawler.logs[0]?.extra).toEqual({ spider: crawler.spider });
  });

  it("uses 'unspecified' as the reason by default", () => {
    const crawler = fakeCrawler();
    getRetryRequest(new Request(URL), { spider: crawler.spider });
    expect(crawler.lines(LOGGER)).toEqual([[LOGGER, 'DEBUG', `Retrying <GET ${URL}> (failed 1 times): unspecified`]]);
    expect(crawler.stats.get('retry/reason_count/unspecified')).toBe(1);
  });

  it('counts under another stats base key', () => {
    const crawler = fakeCrawler();
    getRetryRequest(new Request(URL), { spider: crawler.spider, reason: 'x', statsBaseKey: 'myretry' });
    expect(crawler.stats.getAll()).toEqual({ 'myretry/count': 1, 'myretry/reason_count/x': 1 });
  });

  it('takes explicit options over meta and settings', () => {
    const crawler = fakeCrawler({ RETRY_TIMES: 0 });
    const request = new Request(URL, { meta: { max_retry_times: 0 } });
    const retry = getRetryRequest(request, { spider: crawler.spider, maxRetryTimes: 1, priorityAdjust: 7, backoffBase: 0 });
    expect([retry?.priority, retry?.meta.retry_delay_ms]).toEqual([7, 0]);
  });

  it('prefers meta.max_retry_times over RETRY_TIMES', () => {
    const crawler = fakeCrawler({ RETRY_TIMES: 0 });
    expect(getRetryRequest(new Request(URL, { meta: { max_retry_times: 1 } }), { spider: crawler.spider })).toBeInstanceOf(Request);
    expect(getRetryRequest(new Request(URL), { spider: crawler.spider })).toBeNull();
  });

  it("works without a spider, with Scrapy's defaults", () => {
    const retry = getRetryRequest(new Request(URL, { meta: { retry_times: 1 } }), { reason: 'flaky', random: () => 0.5 });
    expect([retry?.meta.retry_times, retry?.priority, retry?.meta.retry_delay_ms]).toEqual([2, -1, 2000]);
    expect(getRetryRequest(retry!, {})).toBeNull();
  });
});
