import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import type { Response } from '../../src/http/response.js';
import { JobdirError, RequestSerializationError } from '../../src/scheduler/jobdir-errors.js';
import { requestFromDict, requestToDict } from '../../src/scheduler/request-dict.js';
import { Spider } from '../../src/contracts/spider.js';

class BaseSpider extends Spider {
  parseBase(response: Response): void {
    void response;
  }
}

class BooksSpider extends BaseSpider {
  static override name = 'books';
  parseBook(response: Response): void {
    void response;
  }
  onError(error: Error): void {
    void error;
  }
}

const spider = new BooksSpider();

describe('requestToDict / requestFromDict (JOBDIR serialization)', () => {
  it('round-trips every field, through JSON text', () => {
    const request = new Request('http://example.com/a?x=1', {
      callback: spider.parseBook,
      errback: spider.onError,
      method: 'POST',
      headers: { 'X-Token': ['a', 'b'], Accept: 'text/html' },
      body: Buffer.from([0, 1, 2, 255]),
      cookies: { session: 'abc' },
      meta: { depth: 2, item: { title: 'T', tags: ['x', null], price: 1.5 } },
      cbKwargs: { page: 3, done: false },
      priority: -4,
      dontFilter: true,
      flags: ['cached'],
      encoding: 'latin1',
    });
    const dict = requestToDict(request, spider);
    expect(dict.callback).toBe('parseBook');
    expect(dict.errback).toBe('onError');
    expect(dict.body).toBe('AAEC/w==');
    const back = requestFromDict(JSON.parse(JSON.stringify(dict)) as typeof dict, spider);
    expect(back.url).toBe('http://example.com/a?x=1');
    expect(back.callback).toBe(BooksSpider.prototype.parseBook);
    expect(back.errback).toBe(BooksSpider.prototype.onError);
    expect(back.method).toBe('POST');
    expect(back.headers.getList('x-token')).toEqual(['a', 'b']);
    expect(back.headers.get('Accept')).toBe('text/html');
    expect([...back.body]).toEqual([0, 1, 2, 255]);
    expect(back.cookies).toEqual({ session: 'abc' });
    expect(back.meta).toEqual({ depth: 2, item: { title: 'T', tags: ['x', null], price: 1.5 } });
    expect(back.cbKwargs).toEqual({ page: 3, done: false });
    expect(back.priority).toBe(-4);
    expect(back.dontFilter).toBe(true);
    expect(back.flags).toEqual(['cached']);
    expect(back.encoding).toBe('windows-1252');
  });

  it('finds methods of a base class, and keeps no callback as null', () => {
    expect(requestToDict(new Request('http://e.com/', { callback: spider.parseBase }), spider).callback).toBe('parseBase');
    const plain = requestToDict(new Request('http://e.com/'), spider);
    expect(plain.callback).toBeNull();
    expect(requestFromDict(plain, spider).callback).toBeNull();
  });

  it('refuses an arrow function callback with Scrapy\'s message and what to do', () => {
    const request = new Request('http://e.com/', { callback: () => undefined });
    expect(() => requestToDict(request, spider)).toThrow(RequestSerializationError);
    expect(() => requestToDict(request, spider)).toThrow(
      "Function 'callback' is not an instance method in: <BooksSpider 'books'> (a request kept in JOBDIR names its callback: " +
        'pass a spider method such as this.parsePage, not an arrow function or a bound function, and put extra data in cbKwargs)',
    );
  });

  it('refuses an anonymous function and a bound method', () => {
    const anonymous = new Request('http://e.com/', { callback: [(): undefined => undefined][0]! });
    expect(() => requestToDict(anonymous, spider)).toThrow(/^Function <anonymous> is not an instance method in: <BooksSpider 'books'> /);
    const bound = new Request('http://e.com/', { callback: spider.parseBook.bind(spider) });
    expect(() => requestToDict(bound, spider)).toThrow(/^Function 'bound parseBook' is not an instance method/);
  });

  it('names the meta or cbKwargs key whose value JSON cannot carry', () => {
    const when = new Request('http://e.com/x', { meta: { item: { when: new Date(0) } } });
    expect(() => requestToDict(when, spider)).toThrow(
      'meta.item.when of <GET http://e.com/x> holds a Date, which JSON cannot carry: a request kept in JOBDIR stores meta, cbKwargs and cookies as JSON ' +
        '(strings, finite numbers, booleans, null, arrays, plain objects)',
    );
    const fn = new Request('http://e.com/x', { cbKwargs: { list: [1, { 'odd key': () => 1 }] } });
    expect(() => requestToDict(fn, spider)).toThrow(/^cbKwargs\.list\[1\]\["odd key"\] of <GET http:\/\/e\.com\/x> holds a function, /);
    const nan = new Request('http://e.com/x', { meta: { ratio: Number.NaN } });
    expect(() => requestToDict(nan, spider)).toThrow(/^meta\.ratio of <GET http:\/\/e\.com\/x> holds NaN, /);
    const missing = new Request('http://e.com/x', { meta: { gone: undefined } });
    expect(() => requestToDict(missing, spider)).toThrow(/^meta\.gone of <GET http:\/\/e\.com\/x> holds undefined, /);
  });

  it('fails with JobdirError when the spider no longer has the stored callback', () => {
    const dict = requestToDict(new Request('http://e.com/', { callback: spider.parseBook }), spider);
    class OtherSpider extends Spider {
      static override name = 'other';
    }
    expect(() => requestFromDict(dict, new OtherSpider())).toThrow(JobdirError);
    expect(() => requestFromDict(dict, new OtherSpider())).toThrow(
      "Method 'parseBook' not found in: <OtherSpider 'other'> (a request in JOBDIR names it as its callback: restore the method, or start over with an empty JOBDIR)",
    );
  });
});
