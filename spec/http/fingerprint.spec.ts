import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { cachedFingerprint, fingerprint } from '../../src/http/fingerprint.js';
import { Request } from '../../src/http/request.js';

interface FingerprintCase {
  url: string;
  method?: string;
  body?: string;
  headers?: Record<string, string | string[]>;
  encoding?: string;
  include_headers?: string[];
  keep_fragments?: boolean;
  request_url: string;
  fingerprint: string;
}
const fixture = JSON.parse(readFileSync(new URL('../fixtures/http/fingerprints.json', import.meta.url), 'utf8')) as {
  cases: FingerprintCase[];
};

function requestOf(c: FingerprintCase): Request {
  return new Request(c.url, { method: c.method, body: c.body, headers: c.headers, encoding: c.encoding });
}

describe('fingerprint (Scrapy 2.7+ default fingerprinter)', () => {
  it.each(fixture.cases.map((c, i) => [i, c.url, c] as const))('equals Scrapy 2.8’s for case %i, %s', (_, __, c) => {
    const request = requestOf(c);
    expect(request.url).toBe(c.request_url);
    const options = { includeHeaders: c.include_headers, keepFragments: c.keep_fragments };
    expect(fingerprint(request, options)).toBe(c.fingerprint);
  });

  it('is the same for URLs that differ only in argument order or fragment', () => {
    const a = fingerprint(new Request('http://www.example.com/query?id=111&cat=222#top'));
    const b = fingerprint(new Request('http://www.example.com/query?cat=222&id=111'));
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{40}$/);
  });

  it('differs by method and body, and ignores headers unless asked', () => {
    const get = new Request('http://www.example.com/', { headers: { Cookie: 'a=1' } });
    expect(fingerprint(new Request('http://www.example.com/', { method: 'POST' }))).not.toBe(fingerprint(get));
    expect(fingerprint(new Request('http://www.example.com/', { method: 'POST', body: 'x' }))).not.toBe(
      fingerprint(new Request('http://www.example.com/', { method: 'POST' })),
    );
    expect(fingerprint(get)).toBe(fingerprint(new Request('http://www.example.com/')));
    expect(fingerprint(get, { includeHeaders: ['cookie'] })).not.toBe(fingerprint(get));
  });

  it('gives the same value on every call, with and without options', () => {
    const request = new Request('http://www.example.com/page#a');
    const first = fingerprint(request);
    expect(fingerprint(request, { keepFragments: true })).not.toBe(first);
    expect(fingerprint(request)).toBe(first);
  });

  it('escapes a method outside ASCII as Python’s json.dumps does', () => {
    // /usr/bin/python3: fingerprint(Request('http://www.example.com/', method='pöst')).hex()
    expect(fingerprint(new Request('http://www.example.com/', { method: 'pöst' }))).toBe('d22fc9dae26f45de6d882c753aafa5cb342be90d');
  });
});

describe('cachedFingerprint (the scheduler\'s)', () => {
  it("gives Scrapy's fingerprint for every recorded case, asked twice", () => {
    const cached = cachedFingerprint();
    for (const c of fixture.cases.filter((c) => c.include_headers === undefined && c.keep_fragments === undefined)) {
      const request = new Request(c.url, { method: c.method, body: c.body, headers: c.headers, encoding: c.encoding });
      expect(cached(request)).toBe(c.fingerprint);
      expect(cached(request)).toBe(c.fingerprint);
    }
  });

  it('tells apart requests to one URL that differ in method or body', () => {
    const cached = cachedFingerprint();
    const url = 'http://127.0.0.1:8000/form';
    const get = cached(new Request(url));
    const postA = cached(new Request(url, { method: 'POST', body: 'a=1' }));
    const postB = cached(new Request(url, { method: 'POST', body: 'a=2' }));
    const head = cached(new Request(url, { method: 'HEAD' }));
    expect(new Set([get, postA, postB, head]).size).toBe(4);
    expect(cached(new Request(url))).toBe(get);
    // The fragment is not part of a fingerprint, so not of the cache's key either.
    expect(cached(new Request(`${url}#item-3`))).toBe(get);
    expect(cached(new Request(`${url}?a=1#item-3`))).toBe(fingerprint(new Request(`${url}?a=1`)));
    expect(postA).toBe(fingerprint(new Request(url, { method: 'POST', body: 'a=1' })));
  });

  it('stays right past its size (it forgets, it never answers for another URL)', () => {
    const cached = cachedFingerprint(3);
    const urls = Array.from({ length: 10 }, (_, i) => `http://127.0.0.1:8000/page/${i}/?b=2&a=1`);
    for (let round = 0; round < 2; round++) {
      for (const url of urls) expect(cached(new Request(url))).toBe(fingerprint(new Request(url)));
    }
  });
});
