import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { Request, isRequest, safeUrl, type Callback } from '../../src/http/request.js';
import { InvalidUrlError } from '../../src/http/http-errors.js';

const parse: Callback = function parse() {};

describe('new Request', () => {
  it('has Scrapy’s defaults', () => {
    const request = new Request('http://example.com/page');
    expect({
      url: request.url, method: request.method, headers: request.headers.size, body: request.body, meta: request.meta, cbKwargs: request.cbKwargs,
      priority: request.priority, dontFilter: request.dontFilter, callback: request.callback, errback: request.errback, flags: request.flags,
      encoding: request.encoding, cookies: request.cookies,
    }).toEqual({
      url: 'http://example.com/page', method: 'GET', headers: 0, body: Buffer.alloc(0), meta: {}, cbKwargs: {}, priority: 0, dontFilter: false,
      callback: null, errback: null, flags: [], encoding: 'utf-8', cookies: {},
    });
  });

  it('prints as <METHOD url>, as Scrapy logs it', () => {
    expect(String(new Request('http://example.com/a b'))).toBe('<GET http://example.com/a%20b>');
    expect(inspect(new Request('http://example.com/', { method: 'post' }))).toBe('<POST http://example.com/>');
  });

  it('keeps every option it is given', () => {
    const errback = (): void => {};
    const request = new Request('http://example.com/', {
      callback: parse, errback, method: 'put', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}', cookies: { session: 'x' },
      meta: { depth: 1 }, cbKwargs: { id: 7 }, priority: -3, dontFilter: true, flags: ['retry'],
    });
    expect([request.callback, request.errback, request.method, request.headers.get('content-type'), request.body.toString(), request.cookies]).toEqual([
      parse, errback, 'PUT', 'application/json', '{"a":1}', { session: 'x' },
    ]);
    expect([request.meta, request.cbKwargs, request.priority, request.dontFilter, request.flags]).toEqual([{ depth: 1 }, { id: 7 }, -3, true, ['retry']]);
  });

  it('copies meta, cbKwargs, flags and a Buffer body instead of sharing them', () => {
    const meta = { a: 1 };
    const body = Buffer.from('x');
    const request = new Request('http://example.com/', { meta, body, flags: ['f'] });
    meta.a = 2;
    body[0] = 0x79;
    expect([request.meta.a, request.body.toString()]).toEqual([1, 'x']);
  });

  it('encodes a string body in the request’s encoding', () => {
    expect(new Request('http://example.com/', { body: 'café' }).body).toEqual(Buffer.from('café', 'utf8'));
    const latin = new Request('http://example.com/', { body: 'café', encoding: 'latin1' });
    expect([latin.body, latin.encoding]).toEqual([Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'windows-1252']);
    expect(new Request('http://example.com/', { body: new Uint8Array([1, 2]) }).body).toEqual(Buffer.from([1, 2]));
  });

  it('refuses values of the wrong type with Scrapy’s messages', () => {
    expect(() => new Request(42 as never)).toThrow(new TypeError('Request url must be a string, got number'));
    expect(() => new Request('http://example.com/', { priority: 1.5 })).toThrow(new TypeError('Request priority not an integer: 1.5'));
    expect(() => new Request('http://example.com/', { callback: 'parse' as never })).toThrow(new TypeError('callback must be a function, got string'));
    expect(() => new Request('http://example.com/', { errback: {} as never })).toThrow(new TypeError('errback must be a function, got object'));
    expect(() => new Request('http://example.com/', { encoding: 'klingon' })).toThrow(
      new TypeError("Unknown encoding for Request: 'klingon' (use a WHATWG encoding label such as 'utf-8' or 'windows-1252')"),
    );
  });

  it("refuses an option it does not take, giving seine's spelling of Scrapy's snake_case keywords", () => {
    expect(() => new Request('http://example.com/', { cb_kwargs: { page: 2 } } as never)).toThrow(
      new TypeError("Unknown Request option 'cb_kwargs': seine spells it cbKwargs"),
    );
    expect(() => new Request('http://example.com/', { dont_filter: true } as never)).toThrow(
      new TypeError("Unknown Request option 'dont_filter': seine spells it dontFilter"),
    );
    expect(() => new Request('http://example.com/', { playwright: true } as never)).toThrow(
      new TypeError("Unknown Request option 'playwright': the options are callback, errback, method, headers, body, cookies, meta, cbKwargs, priority, dontFilter, flags, encoding"),
    );
    expect(new Request('http://example.com/').replace({ url: 'http://example.com/2' }).url).toBe('http://example.com/2');
    // The stack starts at the line that made the Request, so a crawl's "Spider error processing" names it.
    let error: Error | undefined;
    try {
      new Request('http://example.com/', { cb_kwargs: {} } as never);
    } catch (caught) {
      error = caught as Error;
    }
    expect(error?.stack?.split('\n')[1]).toMatch(/^ {4}at .*spec\/http\/request\.spec\.ts:\d+:\d+\)?$/);
  });
});

describe('Request URLs', () => {
  it('escapes what must be escaped and keeps what is escaped already', () => {
    expect(new Request('http://www.example.com/résumé?q=a b#x y').url).toBe('http://www.example.com/r%C3%A9sum%C3%A9?q=a%20b#x%20y');
    expect(new Request('http://www.example.com/a%20b?q=%E2%82%AC').url).toBe('http://www.example.com/a%20b?q=%E2%82%AC');
    expect(new Request('  HTTP://Bücher.EXAMPLE:080/x  ').url).toBe('http://xn--bcher-kva.example:80/x');
  });

  it('rewrites an AJAX-crawlable #! URL as Scrapy 2.8 does', () => {
    expect(new Request('http://www.example.com/ajax.html#!key=value').url).toBe('http://www.example.com/ajax.html?_escaped_fragment_=key%3Dvalue');
  });

  it('accepts about: and data: URLs, as Scrapy does', () => {
    expect(new Request('about:blank').url).toBe('about:blank');
    expect(new Request('data:text/plain,hello world').url).toBe('data:text/plain,hello%20world');
  });

  it('refuses a URL without a scheme with Scrapy’s message and what to do', () => {
    expect(() => new Request('/page/2/')).toThrow(
      new InvalidUrlError('/page/2/', "Missing scheme in request url: /page/2/ (write an absolute URL such as 'https://example.com/page', or use response.follow() to join a link to the page's URL)"),
    );
    expect(() => new Request('www.example.com/a b')).toThrow('Missing scheme in request url: www.example.com/a%20b (');
    try {
      new Request('quotes.toscrape.com');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidUrlError);
      expect((error as InvalidUrlError).code).toBe('SEINE_INVALID_URL');
      expect((error as InvalidUrlError).url).toBe('quotes.toscrape.com');
    }
  });

  it('says which http:// URL was meant for a bare host, and to leave out mailto: and javascript: links', () => {
    expect(() => new Request('127.0.0.1:8765/')).toThrow(
      new InvalidUrlError('127.0.0.1:8765/', "Missing scheme in request url: 127.0.0.1:8765/ (did you mean 'http://127.0.0.1:8765/'?)"),
    );
    expect(() => new Request('localhost:8000')).toThrow("Missing scheme in request url: localhost:8000 (did you mean 'http://localhost:8000'?)");
    expect(() => new Request('www.example.com/a b')).toThrow("Missing scheme in request url: www.example.com/a%20b (did you mean 'http://www.example.com/a%20b'?)");
    expect(() => new Request('mailto:a@example.com')).toThrow("Missing scheme in request url: mailto:a@example.com ('mailto:' URLs have nothing to download: leave such links out)");
    expect(() => new Request('JavaScript:void(0)')).toThrow("('javascript:' URLs have nothing to download: leave such links out)");
    // A relative link may look like a host name: it gets the general advice.
    expect(() => new Request('page.html')).toThrow("Missing scheme in request url: page.html (write an absolute URL such as 'https://example.com/page', or use response.follow()");
  });

  it('refuses ports and IPv6 hosts Python’s parser rejects, with its words', () => {
    expect(() => new Request('http://example.com:abc/')).toThrow(
      new InvalidUrlError('http://example.com:abc/', "Port could not be cast to integer value as 'abc' in request url: http://example.com:abc/ (fix the URL, or skip the link)"),
    );
    expect(() => new Request('http://example.com:70000/')).toThrow('Port out of range 0-65535 in request url: http://example.com:70000/');
    expect(() => new Request('http://[::1/')).toThrow('Invalid IPv6 URL in request url: http://[::1/');
  });

  it('refuses a URL the URL standard cannot parse, so later stages can rely on new URL(request.url)', () => {
    expect(() => new Request('http://exa mple.com/')).toThrow(
      new InvalidUrlError('http://exa mple.com/', 'Malformed request url: http://exa mple.com/ (not a URL by the URL standard: check the host and port)'),
    );
    expect(() => new Request('http://')).toThrow('Malformed request url: http:// (');
  });

  it('keeps the brackets of an IPv6 host', () => {
    expect(new Request('http://[::1]:8080/x').url).toBe('http://[::1]:8080/x');
  });

  it('refuses a query character the request’s encoding cannot write', () => {
    expect(() => new Request('http://example.com/?q=日', { encoding: 'windows-1252' })).toThrow(
      "Cannot encode '日' in windows-1252 for request url: http://example.com/?q=日 (the query and fragment are encoded in the request's encoding: pass { encoding: 'utf-8' } or percent-encode the URL)",
    );
  });
});

describe('request.replace', () => {
  const original = new Request('http://example.com/', { callback: parse, meta: { a: 1 }, headers: { X: '1' }, priority: 2, encoding: 'latin1' });

  it('returns a new Request with the given fields replaced and the others kept', () => {
    const post = original.replace({ method: 'POST', body: 'q=é' });
    expect(post).not.toBe(original);
    expect([post.method, post.url, post.callback, post.meta, post.headers.get('x'), post.priority, post.encoding]).toEqual([
      'POST', 'http://example.com/', parse, { a: 1 }, '1', 2, 'windows-1252',
    ]);
    expect(post.body).toEqual(Buffer.from([0x71, 0x3d, 0xe9]));
    expect(original.method).toBe('GET');
  });

  it('copies meta and headers, so changing the copy leaves the original alone', () => {
    const copy = original.replace();
    copy.meta.a = 99;
    copy.headers.set('X', '2');
    expect([original.meta.a, original.headers.get('x')]).toEqual([1, '1']);
  });

  it('checks and escapes a new URL', () => {
    expect(original.replace({ url: 'http://example.com/a b' }).url).toBe('http://example.com/a%20b');
    expect(() => original.replace({ url: 'nowhere' })).toThrow('Missing scheme in request url: nowhere');
  });
});

describe('isRequest', () => {
  it('knows Requests by brand, also those from another loaded copy of seine', () => {
    expect(isRequest(new Request('http://example.com/'))).toBe(true);
    expect(isRequest({ url: 'http://example.com/', method: 'GET' })).toBe(false);
    expect(isRequest(null)).toBe(false);
    const foreign = Object.create(Object.defineProperty({}, Symbol.for('seine.Request'), { value: true })) as object;
    expect(isRequest(foreign)).toBe(true);
  });
});

describe('safeUrl', () => {
  it('escapes relative URLs too and never throws', () => {
    expect(safeUrl('/a b/é?q=ü')).toBe('/a%20b/%C3%A9?q=%C3%BC');
    expect(safeUrl('../x y')).toBe('../x%20y');
    expect(safeUrl('http://h:bad/a b')).toBe('http://h:bad/a%20b');
  });

  // Found by spec/fuzz/http-url.spec.ts: encodeURIComponent threw URIError on a lone surrogate.
  it("escapes a lone surrogate as U+FFFD where Python could not split the URL ('http://[\\ud800')", () => {
    expect(safeUrl('http://[\ud800')).toBe('http://[%EF%BF%BD');
    expect(safeUrl('http://a:x/\udc00')).toBe('http://a:x/%EF%BF%BD');
  });

  // Found by spec/fuzz/http-url.spec.ts: the escaped form split, and the second call dropped the empty fragment.
  it("is idempotent where escaping makes the URL splittable ('http://℀.com#')", () => {
    expect(safeUrl('http://℀.com#')).toBe('http://%E2%84%80.com');
    expect(safeUrl(safeUrl('http://℀.com#'))).toBe('http://%E2%84%80.com');
  });
});
