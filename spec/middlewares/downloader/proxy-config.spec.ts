import { describe, expect, it } from '@jest/globals';
import { ProxyUrlError } from '../../../src/middlewares/downloader/proxy-url-error.js';
import { bypassesProxy, parseProxyUrl } from '../../../src/middlewares/downloader/proxy-config.js';
import { proxiesFromEnv } from '../../../src/http/proxy-env.js';

describe('parseProxyUrl', () => {
  // Expected values are urllib's _parse_proxy (Python 3.11), then Scrapy's urlunparse of scheme and host:port.
  it('splits scheme, credentials and host:port', () => {
    expect(parseProxyUrl('http://u:p@proxy:8080', 'x')).toEqual({ url: 'http://proxy:8080', user: 'u', password: 'p' });
    expect(parseProxyUrl('proxy:8080', 'https')).toEqual({ url: 'https://proxy:8080', user: null, password: null });
    expect(parseProxyUrl('u:p@proxy:8080', 'http')).toEqual({ url: 'http://proxy:8080', user: 'u', password: 'p' });
    expect(parseProxyUrl('http://proxy:8080/', 'x')).toEqual({ url: 'http://proxy:8080', user: null, password: null });
    expect(parseProxyUrl('http://u@h:1', 'x')).toEqual({ url: 'http://h:1', user: 'u', password: null });
    expect(parseProxyUrl('socks5://h:1080', 'x')).toEqual({ url: 'socks5://h:1080', user: null, password: null });
    expect(parseProxyUrl('//h:1', 'http')).toEqual({ url: 'http://h:1', user: null, password: null });
  });

  it('percent-decodes credentials and splits at the last @', () => {
    expect(parseProxyUrl('https://u%40x:p%3A@h:1', 'x')).toEqual({ url: 'https://h:1', user: 'u@x', password: 'p:' });
    expect(parseProxyUrl('http://a@b:c@h:1', 'x')).toEqual({ url: 'http://h:1', user: 'a@b', password: 'c' });
  });

  it('rejects a URL without //host', () => {
    expect(() => parseProxyUrl('/var/run/docker.sock', 'http')).toThrow(
      new ProxyUrlError('/var/run/docker.sock'),
    );
    expect(new ProxyUrlError('/x').message).toBe("Proxy URL with no authority: '/x' (write it as scheme://host:port, e.g. 'http://proxy.example:3128')");
    expect(new ProxyUrlError('/x').code).toBe('SEINE_BAD_PROXY_URL');
    expect(() => parseProxyUrl('http:/x', 'http')).toThrow("Proxy URL with no authority: 'http:/x'");
  });
});

describe('proxiesFromEnv', () => {
  it('reads <scheme>_proxy in any case, the lower-case name winning', () => {
    expect(proxiesFromEnv({ HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:1', HTTPS_PROXY: 'http://s:1', No_Proxy: 'a.test', PATH: '/bin' })).toEqual({
      http: 'http://lower:1',
      https: 'http://s:1',
      no: 'a.test',
    });
  });

  it('lets an empty lower-case value remove the scheme, and ignores empty values', () => {
    expect(proxiesFromEnv({ HTTP_PROXY: 'http://upper:1', http_proxy: '', ftp_proxy: '' })).toEqual({});
  });

  it('ignores HTTP_PROXY under CGI (REQUEST_METHOD set)', () => {
    expect(proxiesFromEnv({ HTTP_PROXY: 'http://evil:1', REQUEST_METHOD: 'GET' })).toEqual({});
    expect(proxiesFromEnv({ http_proxy: 'http://ok:1', REQUEST_METHOD: 'GET' })).toEqual({ http: 'http://ok:1' });
  });
});

describe('bypassesProxy', () => {
  it("matches hosts and subdomains of no_proxy's entries, ignoring leading dots, case and spaces", () => {
    const noProxy = ' .Internal.test , b.test,,';
    expect(['internal.test', 'x.internal.test', 'B.TEST', 'a.b.test'].map((host) => bypassesProxy(host, noProxy))).toEqual([true, true, true, true]);
    expect(['xinternal.test', 'b.test.com', 'c.test'].map((host) => bypassesProxy(host, noProxy))).toEqual([false, false, false]);
  });

  it('matches everything for *, nothing for an empty or missing value', () => {
    expect([bypassesProxy('a.test', '*'), bypassesProxy('a.test', ''), bypassesProxy('a.test', undefined)]).toEqual([true, false, false]);
  });

  it('compares IPv6 hosts without brackets', () => {
    expect(bypassesProxy('[::1]', '::1')).toBe(true);
    expect(bypassesProxy('[::1]:8080', '::1')).toBe(true);
  });

  // Expected values are /usr/bin/python3's urllib.request.proxy_bypass_environment(host, {'no': entry}).
  it('matches host:port entries on that port only, and plain entries on every port, as urllib', () => {
    const cases: Array<[string, string, boolean]> = [
      ['skip.test:81', 'skip.test:81', true],
      ['skip.test:82', 'skip.test:81', false],
      ['a.skip.test:81', 'skip.test:81', true],
      ['skip.test:81', 'skip.test', true],
      ['skip.test', 'skip.test:81', false],
      ['xskip.test:81', 'skip.test:81', false],
      ['[::1]:8080', '[::1]:8080', true],
    ];
    expect(cases.map(([host, entry]) => [host, entry, bypassesProxy(host, entry)])).toEqual(cases);
  });
});
