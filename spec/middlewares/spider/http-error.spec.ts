import { describe, expect, it } from '@jest/globals';
import { IgnoreRequest } from '../../../src/contracts/control-flow.js';
import { HttpError, HttpErrorMiddleware, isHttpError } from '../../../src/middlewares/spider/http-error.js';
import { Spider } from '../../../src/contracts/spider.js';
import { TestSpider, fakeCrawler } from '../../helpers/fake-crawler.js';
import { responseFor } from '../../helpers/spider-output.js';

const spider = new TestSpider();

class HandlesGone extends Spider {
  static override name = 'gone';
  handleHttpstatusList = [410];
}

function thrownBy(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('HttpErrorMiddleware', () => {
  it('lets 2xx responses through', () => {
    const middleware = new HttpErrorMiddleware();
    for (const status of [200, 201, 204, 299]) expect(() => middleware.processSpiderInput(responseFor('http://example.com/', { status }), spider)).not.toThrow();
  });

  it('throws an HttpError carrying the response for a status nobody allowed', () => {
    const response = responseFor('http://example.com/missing', { status: 404 });
    const error = thrownBy(() => new HttpErrorMiddleware().processSpiderInput(response, spider));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(IgnoreRequest);
    expect(isHttpError(error)).toBe(true);
    expect((error as HttpError).response).toBe(response);
    expect((error as HttpError).message).toBe('Ignoring non-200 response');
    expect((error as HttpError).name).toBe('HttpError');
  });

  it('logs an unhandled HttpError at INFO, counts it by status, and ends it with no output', () => {
    const crawler = fakeCrawler();
    const middleware = HttpErrorMiddleware.fromCrawler(crawler);
    const response = responseFor('http://example.com/missing', { status: 404 });
    expect(middleware.processSpiderException(response, new HttpError(response), spider)).toEqual([]);
    const other = responseFor('http://example.com/boom', { status: 500 });
    middleware.processSpiderException(other, new HttpError(other), spider);
    expect(crawler.textLines()).toEqual([
      'INFO [seine.spidermiddlewares.httperror] Ignoring response <404 http://example.com/missing>: HTTP status code is not handled or not allowed',
      'INFO [seine.spidermiddlewares.httperror] Ignoring response <500 http://example.com/boom>: HTTP status code is not handled or not allowed',
    ]);
    expect(crawler.stats.getAll()).toEqual({
      'httperror/response_ignored_count': 2,
      'httperror/response_ignored_status_count/404': 1,
      'httperror/response_ignored_status_count/500': 1,
    });
  });

  it('passes other exceptions on', () => {
    const crawler = fakeCrawler();
    expect(HttpErrorMiddleware.fromCrawler(crawler).processSpiderException(responseFor('http://example.com/'), new Error('boom'), spider)).toBeNull();
    expect(crawler.textLines()).toEqual([]);
  });

  it('allows HTTPERROR_ALLOWED_CODES and everything with HTTPERROR_ALLOW_ALL', () => {
    const allowed = HttpErrorMiddleware.fromCrawler(fakeCrawler({ HTTPERROR_ALLOWED_CODES: [404, 500] }));
    expect(allowed.isAllowed(responseFor('http://example.com/', { status: 404 }), spider)).toBe(true);
    expect(allowed.isAllowed(responseFor('http://example.com/', { status: 403 }), spider)).toBe(false);
    const all = HttpErrorMiddleware.fromCrawler(fakeCrawler({ HTTPERROR_ALLOW_ALL: true }));
    expect(all.isAllowed(responseFor('http://example.com/', { status: 503 }), spider)).toBe(true);
  });

  it('uses the spider\'s handleHttpstatusList instead of HTTPERROR_ALLOWED_CODES', () => {
    const middleware = new HttpErrorMiddleware({ allowedCodes: [404] });
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 410 }), new HandlesGone())).toBe(true);
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 404 }), new HandlesGone())).toBe(false);
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 404 }), spider)).toBe(true);
  });

  it('lets meta.handle_httpstatus_list decide alone, even over HTTPERROR_ALLOW_ALL', () => {
    const middleware = new HttpErrorMiddleware({ allowAll: true, allowedCodes: [500] });
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 404, meta: { handle_httpstatus_list: [404] } }), spider)).toBe(true);
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 500, meta: { handle_httpstatus_list: [404] } }), spider)).toBe(false);
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 500, meta: { handle_httpstatus_list: [] } }), spider)).toBe(false);
  });

  it('allows every status with meta.handle_httpstatus_all', () => {
    const middleware = new HttpErrorMiddleware();
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 500, meta: { handle_httpstatus_all: true } }), spider)).toBe(true);
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 500, meta: { handle_httpstatus_all: false } }), spider)).toBe(false);
  });

  it('treats 1xx and 3xx responses as not allowed by default', () => {
    const middleware = new HttpErrorMiddleware();
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 301 }), spider)).toBe(false);
    expect(middleware.isAllowed(responseFor('http://example.com/', { status: 100 }), spider)).toBe(false);
  });
});
