import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fingerprint } from '../../src/http/fingerprint.js';
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
