import { describe, expect, it } from '@jest/globals';
import { proxyFor } from '../../src/download/proxy-for.js';

describe('proxyFor', () => {
  it('picks the variable of the URL scheme', () => {
    const env = { http_proxy: 'http://p1:3128', https_proxy: 'http://p2:3128' };
    expect([proxyFor('http://example.com/', env), proxyFor('https://example.com/', env), proxyFor('ftp://example.com/', env)]).toEqual([
      'http://p1:3128', 'http://p2:3128', null,
    ]);
  });

  it('returns null without proxy variables', () => {
    expect(proxyFor('http://example.com/', { PATH: '/usr/bin' })).toBeNull();
  });

  it('reads upper-case names, and prefers lower case when both are set', () => {
    expect(proxyFor('http://example.com/', { HTTP_PROXY: 'http://upper:1' })).toBe('http://upper:1');
    expect(proxyFor('http://example.com/', { HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:1' })).toBe('http://lower:1');
  });

  it('lets an empty lower-case variable unset the upper-case one', () => {
    expect(proxyFor('http://example.com/', { HTTP_PROXY: 'http://upper:1', http_proxy: '' })).toBeNull();
  });

  it('ignores HTTP_PROXY under CGI (REQUEST_METHOD set), but not http_proxy', () => {
    expect(proxyFor('http://example.com/', { HTTP_PROXY: 'http://upper:1', REQUEST_METHOD: 'GET' })).toBeNull();
    expect(proxyFor('http://example.com/', { http_proxy: 'http://lower:1', REQUEST_METHOD: 'GET' })).toBe('http://lower:1');
  });

  it("gives a value without a scheme the URL's scheme", () => {
    expect(proxyFor('https://example.com/', { https_proxy: 'user:pw@127.0.0.1:3128' })).toBe('https://user:pw@127.0.0.1:3128');
  });

  it('skips hosts listed in no_proxy: exact names, domain suffixes, leading dots, any case', () => {
    const env = { http_proxy: 'http://p:1', no_proxy: 'localhost, .Internal.example ,example.org' };
    const urls = ['http://localhost:8080/', 'http://a.internal.example/', 'http://internal.example/', 'http://example.org/', 'http://www.example.org/', 'http://notexample.org/'];
    expect(urls.map((url) => proxyFor(url, env))).toEqual([null, null, null, null, null, 'http://p:1']);
  });

  it('skips every host when no_proxy is *', () => {
    expect(proxyFor('http://example.com/', { http_proxy: 'http://p:1', NO_PROXY: '*' })).toBeNull();
  });

  it('matches a no_proxy entry with a port against host:port', () => {
    const env = { http_proxy: 'http://p:1', no_proxy: '127.0.0.1:8080' };
    expect([proxyFor('http://127.0.0.1:8080/', env), proxyFor('http://127.0.0.1:9090/', env)]).toEqual([null, 'http://p:1']);
  });

  it('returns null for a URL it cannot parse', () => {
    expect(proxyFor('not a url', { http_proxy: 'http://p:1' })).toBeNull();
  });
});
