/**
 * joinUrl's fast path (path-absolute links written after the base's origin)
 * must give exactly what the URL parser gives: every pair below is joined
 * both ways and compared.
 */
import { describe, expect, it } from '@jest/globals';
import { joinUrl } from '../../src/http/urljoin.js';

const BASES = [
  'http://127.0.0.1:33105/page/1/',
  'https://example.com/a/b?x=1#y',
  'http://example.com:80/default-port/',
  'https://example.com:443/',
  'http://EXAMPLE.com/upper/',
  'http://user:pw@example.com/creds/',
  'http://[::1]:8080/v6/',
  'http://example.com./trailing-dot/',
  'http://0x7f.1/hex-ip/',
  'file:///tmp/x.html',
  'http://example.com',
];

const HREFS = [
  '/page/2/', '/page/2/#entry-3', '/', '/?', '/#', '/?a=1&b=2#c', '/a:b@c', "/it's", '/a b', '/a\tb', '/a\\b', '//other.com/x',
  '/\\other', '/./x', '/a/./b', '/a/../b', '/..', '/.', '/a/.hidden', '/%2e%2E/x', '/a%2e/b', '/%zz', '/é', '/a?é', '/a|b', '/a`b', '/{x}',
  '/a?b/../c', '/~user/', "/x?q='y'", '/a"b', '/a<b>', '/a#b#c', '/a?b?c', '/;p=1', '/a,b*c!$+=',
];

describe('joinUrl', () => {
  it('gives what the URL parser gives for path-absolute links, on plain and unusual bases', () => {
    for (const base of BASES) {
      for (const href of HREFS) {
        let expected: string;
        try {
          expected = new URL(href, base).href;
        } catch {
          expected = href;
        }
        expect([base, href, joinUrl(href, base, 'utf-8')]).toEqual([base, href, expected]);
      }
    }
  });

  it('still joins relative and absolute links through the parser', () => {
    expect(joinUrl('../c', 'http://a.test/x/y/z', 'utf-8')).toBe('http://a.test/x/c');
    expect(joinUrl('https://b.test/q', 'http://a.test/', 'utf-8')).toBe('https://b.test/q');
    expect(joinUrl('?x=é', 'http://a.test/p', 'windows-1252')).toBe('http://a.test/p?x=%E9');
  });
});
