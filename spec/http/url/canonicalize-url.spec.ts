import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { canonicalizeUrl } from '../../../src/http/url/canonicalize-url.js';

interface UrlCase {
  url: string;
  safe: string | object;
  canonical?: string;
}
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/http/urls.json', import.meta.url), 'utf8')) as { cases: UrlCase[] };

describe('canonicalizeUrl (w3lib canonicalize_url)', () => {
  const recorded = fixture.cases.filter((c): c is UrlCase & { safe: string; canonical: string } => typeof c.safe === 'string');

  it.each(recorded.map((c) => [c.safe, c.canonical]))('canonicalizes %s as w3lib does', (safe, canonical) => {
    expect(canonicalizeUrl(safe)).toBe(canonical);
  });

  // Values printed by /usr/bin/python3 with w3lib 2.1.1.
  it.each([
    ['http://www.example.com/a%20b/%e2%82%ac%C3?x=%C3', 'http://www.example.com/a%20b/%E2%82%AC%C3?x=%C3'],
    ['http://Www.Example.com:/path?', 'http://www.example.com/path'],
    ['http://user:PW@Example.com::', 'http://user:pw@example.com/'],
    ["http://www.example.com/!$&'()*+,;=:@/", "http://www.example.com/!$&'()*+,;=:@/"],
    ['http://www.example.com/?q=%2B+%26&r=a=b=c', 'http://www.example.com/?q=%2B+%26&r=a%3Db%3Dc'],
    ['http://www.example.com/?b=2&a=2&a=10&A=1', 'http://www.example.com/?A=1&a=10&a=2&b=2'],
    ['https://example.com/é?é=ü#é', 'https://example.com/%C3%A9?%C3%A9=%C3%BC'],
  ])('canonicalizes %s to %s', (url, canonical) => {
    expect(canonicalizeUrl(url)).toBe(canonical);
  });

  it('drops arguments without a value when keepBlankValues is false', () => {
    expect(canonicalizeUrl('http://www.example.com/do?a=1&b=&c', { keepBlankValues: false })).toBe('http://www.example.com/do?a=1');
  });

  it('keeps the fragment, escaped, when keepFragments is true', () => {
    expect(canonicalizeUrl('http://www.example.com/page#Frag%20x y', { keepFragments: true })).toBe('http://www.example.com/page#Frag%20x%20y');
  });

  it('sorts arguments by their bytes, not by their escaped text', () => {
    // As text '%7A' sorts before 'b'; decoded, 'z' sorts after it.
    expect(canonicalizeUrl('https://example.com/?a=%7A&a=b')).toBe('https://example.com/?a=b&a=z');
    expect(canonicalizeUrl('https://example.com/?b=%C3%A9&a=%e9&a=%41')).toBe('https://example.com/?a=A&a=%E9&b=%C3%A9');
  });

  it('gives the same answer on its fast path as on the full one', () => {
    // A leading space keeps a URL off the fast path (isPlainUrl refuses it) and is stripped before parsing.
    const pieces = ['a', 'B', '1', '-', '.', '%41', '%7e', '%2F', '%zz', '~', "'", '!', '(', '*', '+', ',', ';', '=', ':', '@', '/', '?', '&', '#', '%20'];
    let seed = 11;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      let tail = '';
      const length = random(14);
      for (let j = 0; j < length; j++) tail += pieces[random(pieces.length)];
      const url = `http://host.example${random(2) === 0 ? '/' : ''}${tail}`;
      expect(canonicalizeUrl(url)).toBe(canonicalizeUrl(' ' + url));
      expect(canonicalizeUrl(url, { keepBlankValues: false })).toBe(canonicalizeUrl(' ' + url, { keepBlankValues: false }));
    }
  });
});
