/** Python 3.11 urllib.parse behaviours w3lib relies on; expected values printed by /usr/bin/python3. */
import { describe, expect, it } from '@jest/globals';
import { UrlSplitError, hostInfo, portOf, urlparse, urlunsplit, userInfo } from '../../src/python/urlsplit.js';
import { quoteBinary, quotePlusBinary, safeSet, unquote, unquoteToBinary } from '../../src/http/url/quote.js';
import { pythonRepr } from '../../src/python/str-repr.js';

const tuple = (url: string): string[] => {
  const p = urlparse(url);
  return [p.scheme, p.netloc, p.path, p.params, p.query, p.fragment];
};

describe('urlparse', () => {
  it.each([
    ['http://a/b;c/d;e?f#g', ['http', 'a', '/b;c/d', 'e', 'f', 'g']],
    ['HtTp://A:1/p', ['http', 'A:1', '/p', '', '', '']],
    ['localhost:8000', ['localhost', '', '8000', '', '', '']],
    ['path/only?x', ['', '', 'path/only', '', 'x', '']],
    ['//host/p', ['', 'host', '/p', '', '', '']],
    ['http://h/p?q?r#f#g', ['http', 'h', '/p', '', 'q?r', 'f#g']],
    ['x-y.z+1:rest', ['x-y.z+1', '', 'rest', '', '', '']],
    ['1http://h', ['', '', '1http://h', '', '', '']],
  ])('splits %s as Python does', (url, parts) => {
    expect(tuple(url)).toEqual(parts);
  });

  it('refuses a netloc whose NFKC form hides a delimiter', () => {
    expect(() => urlparse('http://h\u2100b/')).toThrow(new UrlSplitError("netloc 'h\u2100b' contains invalid characters under NFKC normalization"));
  });
});

describe('urlunsplit', () => {
  it('adds // for schemes with a netloc, and drops an empty query and fragment', () => {
    expect(urlunsplit({ scheme: 'http', netloc: '', path: 'p', query: '', fragment: '' })).toBe('http:///p');
    expect(urlunsplit({ scheme: 'foo', netloc: '', path: 'p', query: '', fragment: '' })).toBe('foo:p');
    expect(urlunsplit({ scheme: '', netloc: 'h', path: 'p', query: '', fragment: '' })).toBe('//h/p');
  });
});

describe('netloc parts', () => {
  it('reads host, port and user info as Python’s accessors do', () => {
    expect(hostInfo('u:p@Host:81')).toEqual({ host: 'Host', port: '81', bracketed: false });
    expect(hostInfo('[::1]:8080')).toEqual({ host: '::1', port: '8080', bracketed: true });
    expect(hostInfo('h:')).toEqual({ host: 'h', port: null, bracketed: false });
    expect(userInfo('a@b@h')).toEqual({ username: 'a@b', password: null });
    expect(userInfo('u:p:q@h')).toEqual({ username: 'u', password: 'p:q' });
    expect(portOf('080')).toBe(80);
    expect(() => portOf('8a')).toThrow(new UrlSplitError("Port could not be cast to integer value as '8a'"));
  });
});

describe('quoting', () => {
  const safe = safeSet('/');

  it('percent-encodes with upper-case hex and leaves the safe set', () => {
    expect(quoteBinary('a b/c\xe9', safe)).toBe('a%20b/c%E9');
    expect(quotePlusBinary('a b+c', safeSet(''))).toBe('a+b%2Bc');
  });

  it('returns the very string when nothing needs escaping', () => {
    const text = 'already/safe-text_~.';
    expect(quoteBinary(text, safe)).toBe(text);
  });

  it('unquotes to bytes, keeping a % without two hex digits', () => {
    expect(unquoteToBinary('%41%zz%4%e9é')).toBe('A%zz%4\xe9\xc3\xa9');
    expect(unquote('%C3%A9 %E9 é')).toBe('é \ufffd é');
  });

  it('writes Python reprs for messages', () => {
    expect([pythonRepr('abc'), pythonRepr("it's"), pythonRepr('a\nb'), pythonRepr(`'"`)]).toEqual(["'abc'", '"it\'s"', "'a\\nb'", `'\\'"'`]);
  });
});
