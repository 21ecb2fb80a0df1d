/**
 * Properties of URL handling (src/http): what a Request does to the URL it is
 * given (w3lib's safe_url_string), canonicalisation and request fingerprints
 * (Scrapy 2.7+), and joining links to a page's URL. Any string makes a
 * Request or an InvalidUrlError; making the URL safe again changes nothing;
 * the fingerprint ignores header order, query argument order and the
 * fragment, as Scrapy's does; an absolute link joins to itself.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { fingerprint } from '../../src/http/fingerprint.js';
import { InvalidUrlError } from '../../src/http/http-errors.js';
import { Request, safeUrl } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { canonicalizeUrl } from '../../src/http/url/canonicalize-url.js';
import { safeUrlString } from '../../src/http/url/safe-url-string.js';
import { joinUrl } from '../../src/http/urljoin.js';
import { anyString, configureFuzz, runs, seineOutcome } from './fuzz-config.js';

configureFuzz({ numRuns: 300 });

const urlChars = fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/?#[]% "<>\\^`{|}\téß€😀\u0000\u00a0'.split(/(?:)/u), '%41', '%2f', '%zz', '%e9', '..', './');
const part = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit: urlChars, maxLength });
const queryArg = fc.tuple(fc.string({ unit: urlChars, maxLength: 4 }), fc.option(fc.string({ unit: urlChars, maxLength: 4 }), { nil: null }));

// URLs with every part varied: scheme, user info, host (IDN, IPv4/6, empty), port, path, query and fragment.
const structuredUrl = fc
  .record({
    scheme: fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'file://', 'http:', 'data:', 'mailto:', '//', ''),
    user: fc.constantFrom('', '', 'user@', 'u:p@', 'a b:c%40@', 'ü@'),
    host: fc.constantFrom('example.com', 'EXAMPLE.com', 'www.example.com', '127.0.0.1', '[::1]', '[v1.x]', '[1.2.3.4]', 'bücher.de', 'xn--bcher-kva.de',
      'straße.de', 'a..b', '', '0x7f.1', 'exa mple.com', '℀.com'),
    port: fc.constantFrom('', '', ':80', ':8080', ':', ':0', ':99999', ':x'),
    path: part(12),
    query: fc.option(fc.array(queryArg, { maxLength: 4 }), { nil: null }),
    fragment: fc.option(part(6), { nil: null }),
  })
  .map(({ scheme, user, host, port, path, query, fragment }) => {
    let url = scheme + user + host + port + (path === '' || path.startsWith('/') ? path : '/' + path);
    if (query !== null) url += '?' + query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
    if (fragment !== null) url += '#' + fragment;
    return url;
  });
const anyUrl = fc.oneof(structuredUrl, structuredUrl, fc.webUrl({ withQueryParameters: true, withFragments: true }), anyString(40));
const encoding = fc.constantFrom('utf-8', 'utf-8', 'latin1', 'shift_jis', 'utf-16le');
// In UTF-16 every escaped query character is written again as two bytes, `%` included: w3lib 2.1's
// safe_url_string is not idempotent there either (`#a` → `#a%00` → `#a%00%%000%000%00`), so idempotence is
// checked in the byte-oriented encodings only.
const asciiCompatibleEncoding = fc.constantFrom('utf-8', 'utf-8', 'latin1', 'shift_jis');

/** A Request for `url`, or null where the URL is refused (with InvalidUrlError, the only error allowed). */
function requestOrNull(url: string, options: { encoding?: string } = {}): Request | null {
  const outcome = seineOutcome(() => new Request(url, options));
  if (outcome.ok) return outcome.value;
  expect(outcome.error).toBeInstanceOf(InvalidUrlError);
  return null;
}

describe('Request URLs (safe_url_string + escape_ajax)', () => {
  it('any string makes a Request or throws InvalidUrlError', () => {
    fc.assert(
      fc.property(anyUrl, encoding, (url, enc) => {
        const request = requestOrNull(url, { encoding: enc });
        if (request !== null) expect(URL.canParse(request.url)).toBe(true);
      }),
      { numRuns: runs(1500) },
    );
  });

  it("a Request's URL is made again unchanged: new Request(r.url).url === r.url", () => {
    fc.assert(
      fc.property(anyUrl, asciiCompatibleEncoding, (url, enc) => {
        const request = requestOrNull(url, { encoding: enc });
        if (request === null) return;
        expect(new Request(request.url, { encoding: enc }).url).toBe(request.url);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('safeUrl never throws and is idempotent: safe(safe(u)) === safe(u)', () => {
    fc.assert(
      fc.property(anyUrl, (url) => {
        const once = safeUrl(url);
        expect(safeUrl(once)).toBe(once);
      }),
      // Both failed before the fix in safeUrl: a URIError, and a second call that dropped the empty fragment.
      { numRuns: runs(1000), examples: [['http://[\ud800'], ['http://℀.com#']] },
    );
  });

  it('safeUrlString is idempotent where it succeeds', () => {
    fc.assert(
      fc.property(anyUrl, asciiCompatibleEncoding, (url, enc) => {
        let once: string;
        try {
          once = safeUrlString(url, enc);
        } catch {
          return; // UrlSplitError / UnencodableError, which Request turns into InvalidUrlError (checked above).
        }
        expect(safeUrlString(once, enc)).toBe(once);
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('canonicalize_url and fingerprints', () => {
  it('canonicalizeUrl is idempotent, and its fast path agrees with the general one', () => {
    fc.assert(
      fc.property(anyUrl, (url) => {
        const request = requestOrNull(url);
        if (request === null) return;
        const canonical = canonicalizeUrl(request.url);
        expect(canonicalizeUrl(canonical)).toBe(canonical);
        // keepFragments takes the general path; without a fragment it must give the same URL.
        const unfragmented = request.url.split('#')[0]!;
        expect(canonicalizeUrl(unfragmented, { keepFragments: true })).toBe(canonicalizeUrl(unfragmented));
      }),
      { numRuns: runs(1000) },
    );
  });

  it('a request for the canonical URL has the same fingerprint', () => {
    fc.assert(
      fc.property(anyUrl, (url) => {
        const request = requestOrNull(url);
        if (request === null) return;
        expect(fingerprint(new Request(canonicalizeUrl(request.url)))).toBe(fingerprint(request));
      }),
      { numRuns: runs(800) },
    );
  });

  it('ignores the order of query arguments and the fragment', () => {
    const base = fc.constantFrom('http://example.com/', 'https://www.example.com/a/b;p', 'http://127.0.0.1:8000/x%20y', 'http://bücher.de/ü');
    fc.assert(
      fc.property(base, fc.array(queryArg, { minLength: 1, maxLength: 5 }), fc.nat(), fc.option(part(6), { nil: null }), (prefix, args, seed, fragment) => {
        const query = (pairs: typeof args): string => pairs.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
        // The arguments as another order, picked by `seed` (no character of a name or value is a separator there).
        // Controls and spaces are left out: at the URL's end they are stripped (w3lib's _strip), changing the last argument only.
        const clean = args.map(([k, v]) => [k.replace(/[&;#=\x00-\x20]/g, ''), v?.replace(/[&;#\x00-\x20]/g, '') ?? null] as [string, string | null]);
        const shuffled = [...clean].sort((a, b) => ((seed + a.join().length * 7 + b.join().length) % 3) - 1);
        const a = requestOrNull(`${prefix}?${query(clean)}`);
        // A `#!` fragment (tabs and newlines are removed first) is not dropped but becomes `_escaped_fragment_=`
        // (escape_ajax), so it is left out here.
        const b = requestOrNull(`${prefix}?${query(shuffled)}${fragment === null || fragment.replace(/[\t\r\n]/g, '').startsWith('!') ? '' : '#' + fragment}`);
        if (a === null || b === null) return;
        expect(fingerprint(b)).toBe(fingerprint(a));
      }),
      { numRuns: runs(600) },
    );
  });

  it('ignores the order of headers and the case of their names', () => {
    const headerName = fc.constantFrom('Accept', 'X-Token', 'Cookie', 'accept-language', 'X-Empty');
    const header = fc.tuple(headerName, fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(header, { maxLength: 6 }), fc.nat(), (headers, seed) => {
        // Reordered across names only: the values of one name keep their order (they are a list).
        const names = [...new Set(headers.map(([name]) => name.toLowerCase()))];
        const reordered = names
          .sort((x, y) => ((seed + x.length - y.length) % 3) - 1)
          .flatMap((name) => headers.filter(([n]) => n.toLowerCase() === name).map(([n, v]) => [seed % 2 === 0 ? n.toUpperCase() : n, v] as const));
        const include = ['accept', 'X-TOKEN', 'Cookie', 'x-empty', 'absent'];
        const a = new Request('http://example.com/', { headers: headers });
        const b = new Request('http://example.com/', { headers: reordered });
        expect(fingerprint(b, { includeHeaders: [...include].reverse() })).toBe(fingerprint(a, { includeHeaders: include }));
      }),
      { numRuns: runs(400) },
    );
  });
});

describe('urljoin', () => {
  it('an absolute http(s) link joins to itself (as the URL standard writes it), whatever the base', () => {
    const base = fc.oneof(fc.constantFrom('http://example.com/a/b?c#d', 'https://x.org/', 'file:///tmp/x', 'data:text/html,x'), fc.webUrl());
    fc.assert(
      fc.property(anyUrl, base, (url, page) => {
        const request = requestOrNull(url);
        if (request === null || !/^https?:/.test(request.url)) return;
        const expected = new URL(request.url).href;
        expect(joinUrl(request.url, page, 'utf-8')).toBe(expected);
        expect(new Response({ url: page, body: '<html></html>', headers: { 'Content-Type': 'text/html' } }).urljoin(request.url)).toBe(expected);
      }),
      { numRuns: runs(600) },
    );
  });

  it('joining any link to any page never throws and gives a string', () => {
    fc.assert(
      fc.property(anyUrl, fc.oneof(fc.webUrl(), anyUrl), encoding, (href, page, enc) => {
        const outcome = seineOutcome(() => joinUrl(href, page, enc));
        if (outcome.ok) expect(typeof outcome.value).toBe('string');
        else expect(outcome.error).toBeInstanceOf(InvalidUrlError);
      }),
      { numRuns: runs(800) },
    );
  });
});
