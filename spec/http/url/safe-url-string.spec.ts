/**
 * safe_url_string and the Request URL against w3lib 2.1.1 / Scrapy 2.8, case
 * by case (spec/fixtures/http/urls.json, recorded by
 * scripts/record-request-fingerprints.py), plus the fast path's agreement
 * with the full one.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { Request } from '../../../src/http/request.js';
import { InvalidUrlError } from '../../../src/http/http-errors.js';
import { UnencodableError } from '../../../src/http/url/encode-text.js';
import { escapeAjax, isPlainUrl, safeUrlString, stripUrl } from '../../../src/http/url/safe-url-string.js';
import { UrlSplitError } from '../../../src/python/urlsplit.js';

interface RecordedError {
  error: string;
  message: string;
}
interface UrlCase {
  url: string;
  encoding: string;
  safe: string | RecordedError;
  request: string | RecordedError;
  canonical?: string;
}

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/http/urls.json', import.meta.url), 'utf8')) as { cases: UrlCase[] };

function outcome(run: () => string): string | { error: string } {
  try {
    return run();
  } catch (error) {
    if (error instanceof UrlSplitError) return { error: 'ValueError' };
    if (error instanceof UnencodableError) return { error: 'UnicodeEncodeError' };
    if (error instanceof InvalidUrlError) return { error: 'InvalidUrlError' };
    throw error;
  }
}

describe('safeUrlString (w3lib safe_url_string)', () => {
  it.each(fixture.cases.map((c) => [c.url, c] as const))('gives w3lib’s answer for %j', (_, c) => {
    const expected = typeof c.safe === 'string' ? c.safe : { error: c.safe.error };
    expect(outcome(() => safeUrlString(c.url, c.encoding))).toEqual(expected);
  });

  it('keeps Python’s ValueError messages for bad ports', () => {
    expect(() => safeUrlString('http://h:abc/')).toThrow(new UrlSplitError("Port could not be cast to integer value as 'abc'"));
    expect(() => safeUrlString('http://h:65536/')).toThrow(new UrlSplitError('Port out of range 0-65535'));
    expect(() => safeUrlString('http://[::1/')).toThrow(new UrlSplitError('Invalid IPv6 URL'));
    expect(() => safeUrlString('http://[127.0.0.1]/')).toThrow(new UrlSplitError('An IPv4 address cannot be in brackets'));
    expect(() => safeUrlString('http://[zz]/')).toThrow(new UrlSplitError("'zz' does not appear to be an IPv4 or IPv6 address"));
    expect(() => safeUrlString('http://x[::1]/')).toThrow(new UrlSplitError('Invalid IPv6 URL'));
  });

  it('keeps the brackets of an IPv6 host (w3lib 2.1.1 drops them, leaving an unparseable URL)', () => {
    expect(safeUrlString('http://[::1]:8080/a b')).toBe('http://[::1]:8080/a%20b');
    expect(safeUrlString('http://[FE80::1]/')).toBe('http://[fe80::1]/');
  });

  it('is idempotent: a safe URL comes back unchanged', () => {
    for (const c of fixture.cases) {
      if (typeof c.safe !== 'string') continue;
      expect(safeUrlString(c.safe, c.encoding)).toBe(c.safe);
    }
  });

  it('strips C0 controls and spaces at both ends and tabs and newlines inside', () => {
    expect(stripUrl('\u0000 http://a.example/x\ty\n \u001f')).toBe('http://a.example/xy');
  });
});

describe('escapeAjax (Scrapy 2.8)', () => {
  it('turns a #! fragment into _escaped_fragment_ and leaves other fragments', () => {
    expect(escapeAjax('http://a.example/p#!k=v')).toBe('http://a.example/p?_escaped_fragment_=k%3Dv');
    expect(escapeAjax('http://a.example/p?x=1#!')).toBe('http://a.example/p?x=1&_escaped_fragment_=');
    expect(escapeAjax('http://a.example/p#k=v')).toBe('http://a.example/p#k=v');
    expect(escapeAjax('http://a.example/p')).toBe('http://a.example/p');
  });
});

describe('Request url (Scrapy 2.8 Request)', () => {
  it.each(fixture.cases.map((c) => [c.url, c] as const))('keeps Scrapy’s url for %j', (_, c) => {
    const expected = typeof c.request === 'string' ? c.request : { error: 'InvalidUrlError' };
    expect(outcome(() => new Request(c.url, { encoding: c.encoding }).url)).toEqual(expected);
  });

  it('starts its error message with Scrapy’s for a missing scheme', () => {
    for (const c of fixture.cases) {
      if (typeof c.request === 'string' || !c.request.message.startsWith('Missing scheme')) continue;
      expect(() => new Request(c.url)).toThrow(c.request.message + ' (');
    }
  });
});

describe('isPlainUrl (the fast path)', () => {
  const plain = [
    'http://127.0.0.1:8000/page/1/',
    'https://quotes.example.com/tag/love/page/2/?sort=asc&x=1#top',
    'http://a.example',
    'http://a-b.example.com:65535/p;q=1/x.html',
    "http://a.example/it's",
  ];
  const notPlain = [
    'HTTP://a.example/', 'http://A.example/', 'http://a.example:080/', 'http://a.example:65536/', 'http://a.example:/',
    'http://a.example/?', 'http://a.example/#', 'http://a.example/#!x', "http://a.example/?it's", 'http://a.example/a b',
    'http://a.example/p|q', 'http://xn--bcher-kva.example/', 'http://999.1.1.1/', 'http://a.123/', 'http://a.0x1f/',
    'http://user@a.example/', 'ftp://a.example/', 'http://a..example/', 'http://a.example/é',
  ];

  it.each(plain)('takes %s as already safe', (url) => {
    expect(isPlainUrl(url)).toBe(true);
    expect(safeUrlString(url)).toBe(url);
    expect(escapeAjax(url)).toBe(url);
    expect(URL.canParse(url)).toBe(true);
  });

  it.each(notPlain)('sends %s down the full path', (url) => {
    expect(isPlainUrl(url)).toBe(false);
  });

  it('agrees with the full path on every URL it accepts from a generated set', () => {
    const pieces = ['a', 'A', '1', '-', '.', '%41', '%zz', '~', "'", '!', '(', ')', '*', '+', ',', ';', '=', ':', '@', '/', '?', '#', ' ', '|', 'é'];
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      let tail = '';
      const length = random(12);
      for (let j = 0; j < length; j++) tail += pieces[random(pieces.length)];
      const url = `http://host${random(3) === 0 ? ':8080' : ''}.example/${tail}`;
      if (!isPlainUrl(url)) continue;
      accepted++;
      expect(escapeAjax(safeUrlString(url))).toBe(url);
      expect(URL.canParse(url)).toBe(true);
    }
    expect(accepted).toBeGreaterThan(300);
  });
});
