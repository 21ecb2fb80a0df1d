import { describe, expect, it } from '@jest/globals';
import { Headers } from '../../../src/http/headers.js';
import { lastHeader, parseCacheControl, pythonInt } from '../../../src/middlewares/downloader/http-cache-headers.js';
import { formatHttpDate, parseHttpDate } from '../../../src/http/http-date.js';

describe('parseCacheControl', () => {
  it("reads directives as Scrapy's parse_cachecontrol does: lower-cased names, raw values, null without '='", () => {
    expect(parseCacheControl(['public, max-age=3600, No-Cache, =x, private="a,b"'])).toEqual(
      new Map<string, string | null>([['public', null], ['max-age', '3600'], ['no-cache', null], ['private', '"a'], ['b"', null]]),
    );
  });

  it('is empty without the header, and joins several Cache-Control headers into one list', () => {
    expect(parseCacheControl([])).toEqual(new Map());
    expect(parseCacheControl(['max-age=60', 'must-revalidate'])).toEqual(new Map([['max-age', '60'], ['must-revalidate', null]]));
  });
});

describe('parseHttpDate', () => {
  // Expected values: Scrapy 2.8's rfc1123_to_epoch on the same strings.
  it.each([
    ['Sun, 06 Nov 1994 08:49:37 GMT', 784111777],
    ['Sunday, 06-Nov-94 08:49:37 GMT', 784111777],
    ['Sun Nov  6 08:49:37 1994', 784111777],
    ['06 Nov 1994 08:49:37 +0200', 784104577],
    ['Tue, 15 Nov 1994 12:45:26 EST', 784921526],
    ['Wed, 21 Oct 2015 07:28 GMT', 1445412480],
    ['Thu, 01 Jan 1970 00:00:00 GMT', 0],
  ])('reads %j as %d seconds since the epoch', (text, seconds) => {
    expect(parseHttpDate(text)).toBe(seconds);
  });

  it.each(['0', '-1', 'garbage', '', 'Sun, 32 Nov 1994 08:49:37 GMT', 'Sun, 06 Xyz 1994 08:49:37 GMT'])('gives null for %j', (text) => {
    expect(parseHttpDate(text)).toBeNull();
  });

  it('gives null for a missing header', () => {
    expect(parseHttpDate(null)).toBeNull();
  });
});

describe('formatHttpDate', () => {
  it("writes Python's formatdate(usegmt=True) form, which parseHttpDate reads back", () => {
    expect(formatHttpDate(784111777_500)).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(parseHttpDate(formatHttpDate(784111777_000))).toBe(784111777);
  });
});

describe('lastHeader and pythonInt', () => {
  it("reads a header's last value, as Scrapy's headers[name]", () => {
    expect(lastHeader(new Headers([['Age', '1'], ['Age', '2']]), 'age')).toBe('2');
    expect(lastHeader(new Headers(), 'Age')).toBeNull();
  });

  it("reads integers as Python's int(): signs and surrounding spaces, nothing else", () => {
    expect([pythonInt(' 42 '), pythonInt('-5'), pythonInt('+7'), pythonInt('1.5'), pythonInt('"60"'), pythonInt(''), pythonInt(null)]).toEqual([42, -5, 7, null, null, null, null]);
  });
});
