import { describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../../src/contracts/control-flow.js';
import { SeineError } from '../../../src/errors/seine-error.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { RetryMiddleware } from '../../../src/middlewares/downloader/retry.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

const LOGGER = 'seine.downloadermiddlewares.retry';
const URL = 'http://127.0.0.1:8000/page';

class ConnectionRefusedError extends SeineError {
  constructor() {
    super('SEINE_CONNECTION_REFUSED', 'Connection refused: 127.0.0.1:8000');
  }
}

function setup(settings: Record<string, unknown> = {}) {
  const crawler = fakeCrawler({ RETRY_BACKOFF_BASE: 1, ...settings });
  const mw = RetryMiddleware.fromCrawler(crawler);
  return { crawler, mw, spider: crawler.spider };
}

function respond(request: Request, status: number, headers: Record<string, string> = {}): Response {
  return new Response({ url: request.url, status, headers, request });
}

describe('RetryMiddleware.fromCrawler', () => {
  it('reads RETRY_TIMES, RETRY_HTTP_CODES, RETRY_PRIORITY_ADJUST and the backoff settings', () => {
    const { mw } = setup({ RETRY_TIMES: 5, RETRY_HTTP_CODES: '500,418', RETRY_PRIORITY_ADJUST: 3, RETRY_BACKOFF_BASE: '0.5', RETRY_BACKOFF_MAX: 10 });
    expect([mw.retryTimes, [...mw.retryHttpCodes], mw.priorityAdjust, mw.backoffBase, mw.backoffMax]).toEqual([5, [500, 418], 3, 0.5, 10]);
  });

  it("uses Scrapy's defaults, and seine's for the backoff (1 s, 60 s)", () => {
    const mw = RetryMiddleware.fromCrawler(fakeCrawler());
    expect([mw.retryTimes, [...mw.retryHttpCodes], mw.priorityAdjust, mw.backoffBase, mw.backoffMax]).toEqual([
      2, [500, 502, 503, 504, 522, 524, 408, 429], -1, 1, 60,
    ]);
  });

  it('is switched off by RETRY_ENABLED=false', () => {
    expect(() => RetryMiddleware.fromCrawler(fakeCrawler({ RETRY_ENABLED: false }))).toThrow(NotConfigured);
  });
});

describe('RetryMiddleware on responses', () => {
  it('retries a 503 with retry_times 1, dontFilter, lower priority and a backoff delay', () => {
    const { crawler, mw, spider } = setup();
    const request = new Request(URL, { priority: 5, meta: { keep: 'me' } });
    const retry = mw.processResponse(request, respond(request, 503), spider);
    expect(retry).toBeInstanceOf(Request);
    const retried = retry as Request;
    expect([retried.url, retried.dontFilter, retried.priority]).toEqual([URL, true, 4]);
    expect(retried.meta.keep).toBe('me');
    expect(retried.meta.retry_times).toBe(1);
    expect(retried.meta.retry_delay_ms).toBeGreaterThanOrEqual(500);
    expect(retried.meta.retry_delay_ms).toBeLessThanOrEqual(1500);
    expect(crawler.lines(LOGGER)).toEqual([[LOGGER, 'DEBUG', `Retrying <GET ${URL}> (failed 1 times): 503 Service Unavailable`]]);
    expect(crawler.stats.getAll()).toEqual({ 'retry/count': 1, 'retry/reason_count/503 Service Unavailable': 1 });
  });

  it('gives up after RETRY_TIMES retries and passes the last response on', () => {
    const { crawler, mw, spider } = setup();
    let request = new Request(URL);
    const seen: Array<Request | Response> = [];
    for (let i = 0; i < 3; i++) {
      const response = respond(request, 503);
      const result = mw.processResponse(request, response, spider);
      seen.push(result);
      if (result instanceof Request) request = result;
      else expect(result).toBe(response);
    }
    expect(seen.map((r) => (r instanceof Request ? `request ${String(r.meta.retry_times)}` : `response ${r.status}`))).toEqual([
      'request 1', 'request 2', 'response 503',
    ]);
    expect(crawler.lines(LOGGER)).toEqual([
      [LOGGER, 'DEBUG', `Retrying <GET ${URL}> (failed 1 times): 503 Service Unavailable`],
      [LOGGER, 'DEBUG', `Retrying <GET ${URL}> (failed 2 times): 503 Service Unavailable`],
      [LOGGER, 'ERROR', `Gave up retrying <GET ${URL}> (failed 3 times): 503 Service Unavailable`],
    ]);
    expect(crawler.stats.getAll()).toEqual({ 'retry/count': 2, 'retry/reason_count/503 Service Unavailable': 2, 'retry/max_reached': 1 });
  });

  it('grows the delay exponentially between retries', () => {
    const crawler = fakeCrawler({ RETRY_TIMES: 4 });
    const mw = new RetryMiddleware({ retryTimes: 4, backoffBase: 2, backoffMax: 60, random: () => 0.5, stats: crawler.stats, logBus: crawler.logBus });
    let request = new Request(URL);
    const delays: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      request = mw.processResponse(request, respond(request, 500), crawler.spider) as Request;
      delays.push(request.meta.retry_delay_ms);
    }
    expect(delays).toEqual([2000, 4000, 8000, 16000]);
  });

  it('honours Retry-After on a 429, capped at RETRY_BACKOFF_MAX', () => {
    const { crawler, mw, spider } = setup({ RETRY_BACKOFF_MAX: 30 });
    const request = new Request(URL);
    const first = mw.processResponse(request, respond(request, 429, { 'Retry-After': '7' }), spider) as Request;
    const second = mw.processResponse(first, respond(first, 429, { 'Retry-After': '120' }), spider) as Request;
    expect([first.meta.retry_delay_ms, second.meta.retry_delay_ms]).toEqual([7000, 30000]);
    expect(crawler.lines(LOGGER)[0]).toEqual([LOGGER, 'DEBUG', `Retrying <GET ${URL}> (failed 1 times): 429 Unknown Status`]);
    expect(crawler.stats.get('retry/reason_count/429 Unknown Status')).toBe(2);
  });

  it('honours Retry-After as an HTTP date', () => {
    const crawler = fakeCrawler();
    const now = Date.UTC(2024, 0, 2, 3, 4, 5);
    const mw = new RetryMiddleware({ now: () => now, stats: crawler.stats, logBus: crawler.logBus });
    const request = new Request(URL);
    const retry = mw.processResponse(request, respond(request, 503, { 'Retry-After': 'Tue, 02 Jan 2024 03:04:17 GMT' }), crawler.spider) as Request;
    expect(retry.meta.retry_delay_ms).toBe(12000);
  });

  it('retries at once when RETRY_BACKOFF_BASE is 0', () => {
    const { mw, spider } = setup({ RETRY_BACKOFF_BASE: 0 });
    const request = new Request(URL);
    expect((mw.processResponse(request, respond(request, 502), spider) as Request).meta.retry_delay_ms).toBe(0);
  });

  it('passes other statuses on untouched', () => {
    const { crawler, mw, spider } = setup();
    const request = new Request(URL);
    for (const status of [200, 301, 404, 501]) {
      const response = respond(request, status);
      expect(mw.processResponse(request, response, spider)).toBe(response);
    }
    expect(crawler.logs).toEqual([]);
    expect(crawler.stats.getAll()).toEqual({});
  });

  it('leaves requests with meta.dont_retry alone', () => {
    const { crawler, mw, spider } = setup();
    const request = new Request(URL, { meta: { dont_retry: true } });
    const response = respond(request, 503);
    expect(mw.processResponse(request, response, spider)).toBe(response);
    expect(crawler.stats.getAll()).toEqual({});
  });

  it('lets meta.max_retry_times override RETRY_TIMES', () => {
    const { crawler, mw, spider } = setup();
    const once = new Request(URL, { meta: { max_retry_times: 0 } });
    const response = respond(once, 503);
    expect(mw.processResponse(once, response, spider)).toBe(response);
    const more = new Request(URL, { meta: { max_retry_times: 5, retry_times: 4 } });
    expect((mw.processResponse(more, respond(more, 503), spider) as Request).meta.retry_times).toBe(5);
    expect(crawler.lines(LOGGER).map(([, level, message]) => `${level} ${message}`)).toEqual([
      `ERROR Gave up retrying <GET ${URL}> (failed 1 times): 503 Service Unavailable`,
      `DEBUG Retrying <GET ${URL}> (failed 5 times): 503 Service Unavailable`,
    ]);
  });

  it('lets meta.priority_adjust override RETRY_PRIORITY_ADJUST', () => {
    const { mw, spider } = setup();
    const request = new Request(URL, { priority: 1, meta: { priority_adjust: 10 } });
    expect((mw.processResponse(request, respond(request, 503), spider) as Request).priority).toBe(11);
  });

  it('keeps the method, headers, body and callback of the request', () => {
    const { mw, spider } = setup();
    function parse() {}
    const request = new Request(URL, { method: 'POST', body: 'a=1', headers: { 'X-Token': 't' }, callback: parse, cbKwargs: { page: 2 } });
    const retry = mw.processResponse(request, respond(request, 500), spider) as Request;
    expect([retry.method, retry.body.toString(), retry.headers.get('X-Token'), retry.callback, retry.cbKwargs]).toEqual(['POST', 'a=1', 't', parse, { page: 2 }]);
    expect(retry).not.toBe(request);
    expect(request.meta.retry_times).toBeUndefined();
  });
});

describe('RetryMiddleware on download errors', () => {
  it('retries a connection refused error and counts it under the error name', () => {
    const { crawler, mw, spider } = setup();
    const request = new Request(URL);
    const retry = mw.processException(request, new ConnectionRefusedError(), spider);
    expect(retry).toBeInstanceOf(Request);
    expect(retry!.meta.retry_times).toBe(1);
    expect(crawler.lines(LOGGER)).toEqual([[LOGGER, 'DEBUG', `Retrying <GET ${URL}> (failed 1 times): Connection refused: 127.0.0.1:8000`]]);
    expect(crawler.stats.getAll()).toEqual({ 'retry/count': 1, 'retry/reason_count/ConnectionRefusedError': 1 });
  });

  it('retries a TimeoutError', () => {
    const { crawler, mw, spider } = setup();
    const timeout = new Error('The operation was aborted due to timeout');
    timeout.name = 'TimeoutError';
    expect(mw.processException(new Request(URL), timeout, spider)).toBeInstanceOf(Request);
    expect(crawler.stats.get('retry/reason_count/TimeoutError')).toBe(1);
  });

  it('returns null after the last retry so the error goes on', () => {
    const { crawler, mw, spider } = setup();
    const request = new Request(URL, { meta: { retry_times: 2 } });
    expect(mw.processException(request, new ConnectionRefusedError(), spider)).toBeNull();
    expect(crawler.lines(LOGGER)).toEqual([[LOGGER, 'ERROR', `Gave up retrying <GET ${URL}> (failed 3 times): Connection refused: 127.0.0.1:8000`]]);
    expect(crawler.stats.getAll()).toEqual({ 'retry/max_reached': 1 });
  });

  it('does not retry other errors', () => {
    const { crawler, mw, spider } = setup();
    expect(mw.processException(new Request(URL), new TypeError('bug'), spider)).toBeNull();
    expect(mw.processException(new Request(URL), new SeineError('SEINE_INVALID_URL', 'bad url'), spider)).toBeNull();
    expect(crawler.logs).toEqual([]);
  });

  it('does not retry errors of requests with meta.dont_retry', () => {
    const { mw, spider } = setup();
    expect(mw.processException(new Request(URL, { meta: { dont_retry: true } }), new ConnectionRefusedError(), spider)).toBeNull();
  });
});

describe('RetryMiddleware built by hand', () => {
  it('works with no options, counting nothing and logging to the default bus', () => {
    const mw = new RetryMiddleware();
    const crawler = fakeCrawler();
    const request = new Request(URL);
    const retry = mw.processResponse(request, respond(request, 503), crawler.spider);
    expect(retry).toBeInstanceOf(Request);
    expect(crawler.stats.getAll()).toEqual({});
  });

  it('takes its codes from any iterable', () => {
    const mw = new RetryMiddleware({ retryHttpCodes: new Set([418]) });
    const crawler = fakeCrawler();
    const request = new Request(URL);
    expect(mw.processResponse(request, respond(request, 418), crawler.spider)).toBeInstanceOf(Request);
    const response = respond(request, 503);
    expect(mw.processResponse(request, response, crawler.spider)).toBe(response);
  });
});
