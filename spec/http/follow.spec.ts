/**
 * urljoin / follow / followAll. Expected URLs for the Shift_JIS page were
 * printed by Scrapy 2.8 (HtmlResponse.follow) with /usr/bin/python3.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { Response, setInvalidLinkHandler } from '../../src/http/response.js';
import { FollowTargetError, InvalidUrlError } from '../../src/http/http-errors.js';
import type { Callback } from '../../src/http/request.js';
import { defaultLogBus, type LogEvent } from '../../src/log/index.js';

const LINKS = `<html><head><base href="/base/dir/"></head><body>
<a href="page-2.html" class="next">next</a>
<a href=" spaced.html ">spaced</a>
<a>no href</a>
<link rel="alternate" href="/feed.xml">
<p><a href="https://other.example/x?b=2&amp;a=1#top">abs</a></p>
</body></html>`;

function html(body: string | Buffer, url = 'http://example.com/start/page.html'): Response {
  return new Response({ url, headers: { 'Content-Type': 'text/html' }, body });
}

const parse: Callback = function parse() {};
const parseItem: Callback = function parseItem() {};

describe('urljoin', () => {
  it('joins against the page URL', () => {
    const response = html('<p>no base</p>');
    expect(response.urljoin('next.html')).toBe('http://example.com/start/next.html');
    expect(response.urljoin('../up/')).toBe('http://example.com/up/');
    expect(response.urljoin('//cdn.example.com/a.js')).toBe('http://cdn.example.com/a.js');
    expect(response.urljoin('?page=2')).toBe('http://example.com/start/page.html?page=2');
    expect(response.urljoin('https://other.example/')).toBe('https://other.example/');
  });

  it('joins against <base href>, itself relative to the page', () => {
    const response = html(LINKS);
    expect(response.baseUrl).toBe('http://example.com/base/dir/');
    expect(response.urljoin('page-2.html')).toBe('http://example.com/base/dir/page-2.html');
  });

  it('ignores a <base> in a comment or after the first 4,096 characters, as Scrapy does', () => {
    expect(html('<!-- <base href="/commented/"> --><p>x</p>').baseUrl).toBe('http://example.com/start/page.html');
    expect(html(' '.repeat(4096) + '<base href="/late/">').baseUrl).toBe('http://example.com/start/page.html');
  });

  it('joins a binary response against its URL only', () => {
    const response = new Response({ url: 'http://example.com/files/a.bin', headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.from([1, 2, 3]) });
    expect(response.urljoin('b.bin')).toBe('http://example.com/files/b.bin');
    expect(response.follow('b.bin').url).toBe('http://example.com/files/b.bin');
  });

  it('writes non-ASCII in the query and fragment in the page’s encoding, and the path in UTF-8 (Scrapy’s result)', () => {
    const body = Buffer.concat([
      Buffer.from('<html><head><meta charset="shift_jis"><base href="/base/dir/"></head><body><a href="'),
      Buffer.from([0x8c, 0x9f, 0x8d, 0xf5]), // 検索
      Buffer.from('?q='),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b]), // 日本
      Buffer.from('">x</a></body></html>'),
    ]);
    const response = html(body);
    expect(response.encoding).toBe('shift_jis');
    const expected = 'http://example.com/base/dir/%E6%A4%9C%E7%B4%A2?q=%93%FA%96%7B';
    expect(response.follow(response.css('a')[0]!).url).toBe(expected);
    expect(response.follow('検索?q=日本#日本').url).toBe(expected + '#%93%FA%96%7B');
    expect(response.follow('検索?q=日本').encoding).toBe('shift_jis');
  });

  it('refuses a character the page’s encoding cannot write in the query, as Scrapy does', () => {
    const response = html('<p>x</p>');
    const sjis = new Response({ url: 'http://example.com/', headers: { 'Content-Type': 'text/html; charset=shift_jis' }, body: Buffer.from('x') });
    expect(response.follow('?q=€').url).toBe('http://example.com/start/page.html?q=%E2%82%AC');
    expect(() => sjis.follow('?q=€')).toThrow(
      new InvalidUrlError('?q=€', "Cannot encode '€' in shift_jis for request url: ?q=€ (the query and fragment are encoded in the request's encoding: pass { encoding: 'utf-8' } or percent-encode the URL)"),
    );
  });
});

describe('follow', () => {
  const response = html(LINKS);

  it('makes a GET Request for a relative href, with the callback given', () => {
    const request = response.follow('page-2.html', parse);
    expect(request).toBeInstanceOf(Request);
    expect(String(request)).toBe('<GET http://example.com/base/dir/page-2.html>');
    expect(request.callback).toBe(parse);
  });

  it('takes Request options instead of a callback', () => {
    const errback = (): void => {};
    const request = response.follow('page-2.html', {
      callback: parse, errback, method: 'POST', body: 'a=1', headers: { 'X-A': '1' }, meta: { m: 1 }, cbKwargs: { k: 2 },
      priority: 5, dontFilter: true, flags: ['f'],
    });
    expect([request.method, request.body.toString(), request.headers.get('x-a'), request.meta, request.cbKwargs, request.priority, request.dontFilter, request.flags]).toEqual([
      'POST', 'a=1', '1', { m: 1 }, { k: 2 }, 5, true, ['f'],
    ]);
    expect([request.callback, request.errback]).toEqual([parse, errback]);
  });

  it('accepts no callback, or null, meaning the spider’s parse', () => {
    expect(response.follow('a.html').callback).toBeNull();
    expect(response.follow('a.html', null).callback).toBeNull();
  });

  it('follows the href of an <a> or <link> Selector, stripped of surrounding spaces', () => {
    const anchors = response.css('a');
    expect(response.follow(anchors[0]!).url).toBe('http://example.com/base/dir/page-2.html');
    expect(response.follow(anchors[1]!).url).toBe('http://example.com/base/dir/spaced.html');
    expect(response.follow(response.css('link')[0]!).url).toBe('http://example.com/feed.xml');
  });

  it('follows an attribute or text Selector by its value', () => {
    expect(response.follow(response.css('a.next::attr(href)')[0]!).url).toBe('http://example.com/base/dir/page-2.html');
    expect(response.follow(response.xpath('//a[@class="next"]/@href')[0]!).url).toBe('http://example.com/base/dir/page-2.html');
    expect(response.follow(response.xpath('//a[2]/text()')[0]!).url).toBe('http://example.com/base/dir/spaced');
    expect(response.follow(response.xpath('string(//a[@class="next"]/@href)')[0]!).url).toBe('http://example.com/base/dir/page-2.html');
  });

  it('follows anything with a url, such as a Request', () => {
    expect(response.follow(new Request('http://example.com/elsewhere')).url).toBe('http://example.com/elsewhere');
  });

  it('refuses Selectors that carry no link, with Scrapy’s messages', () => {
    expect(() => response.follow(response.css('a')[2]!)).toThrow(
      new FollowTargetError("<a> element has no href attribute: <Selector query='descendant-or-self::a' data='<a>no href</a>'>"),
    );
    expect(() => response.follow(response.css('body')[0]!)).toThrow(
      'Only <a> and <link> elements are supported; got <body> (select the attribute instead, e.g. ::attr(href))',
    );
    expect(() => response.follow(response.xpath('count(//a)')[0]!)).toThrow(
      "Unsupported selector: <Selector query='count(//a)' data='4.0'> (select an <a> or <link> element, or an attribute such as ::attr(href))",
    );
    expect(() => response.follow(response.css('a') as never)).toThrow(
      'SelectorList is not supported by follow(): pass one Selector (list[0]), or use followAll()',
    );
    expect(() => response.follow(null as never)).toThrow("url can't be null or undefined");
    expect(FollowTargetError.code).toBe('SEINE_FOLLOW_TARGET');
  });

  it('fails like Scrapy on links that are not URLs with a scheme', () => {
    expect(() => response.follow('javascript:void(0)')).toThrow(new InvalidUrlError('javascript:void(0)', "Missing scheme in request url: javascript:void(0) ('javascript:' URLs have nothing to download: leave such links out)"));
    expect(() => response.follow('mailto:a@example.com')).toThrow('Missing scheme in request url: mailto:a@example.com');
  });
});

describe('followAll', () => {
  const response = html(LINKS);

  it('follows a list of hrefs, in order', () => {
    const requests = response.followAll(['a.html', '/b.html', 'http://c.example/'], parse);
    expect(requests.map(String)).toEqual([
      '<GET http://example.com/base/dir/a.html>', '<GET http://example.com/b.html>', '<GET http://c.example/>',
    ]);
    expect(requests.every((r) => r.callback === parse)).toBe(true);
  });

  it('follows a SelectorList, skipping selectors that carry no link, as Scrapy does', () => {
    expect(response.followAll(response.css('a')).map((r) => r.url)).toEqual([
      'http://example.com/base/dir/page-2.html', 'http://example.com/base/dir/spaced.html', 'https://other.example/x?b=2&a=1#top',
    ]);
    expect(response.followAll(response.css('a::attr(href)')).map((r) => r.url)).toHaveLength(3);
  });

  it('throws on a link-less selector in a plain array (only lists and queries skip)', () => {
    expect(() => response.followAll([...response.css('a')])).toThrow('<a> element has no href attribute');
  });

  it('selects the links itself with { css } or { xpath }, with options beside the query', () => {
    expect(response.followAll({ css: 'a.next' }).map((r) => r.url)).toEqual(['http://example.com/base/dir/page-2.html']);
    expect(response.followAll({ xpath: '//link/@href' }, parseItem).map((r) => [r.url, r.callback])).toEqual([['http://example.com/feed.xml', parseItem]]);
    const [request] = response.followAll({ css: 'a.next', callback: parseItem, meta: { from: 'list' } });
    expect([request!.callback, request!.meta]).toEqual([parseItem, { from: 'list' }]);
  });

  it('asks for exactly one of urls, css and xpath', () => {
    expect(() => response.followAll({ css: 'a', xpath: '//a' } as never)).toThrow(new TypeError('Please supply exactly one of the following arguments: urls, css, xpath'));
    expect(() => response.followAll(42 as never)).toThrow('followAll() needs an iterable of links, or { css } or { xpath }, got 42');
    expect(() => response.followAll(response.css('a')[0] as never)).toThrow(
      "followAll() needs an iterable of links, or { css } or { xpath }, got <Selector query='descendant-or-self::a' data='<a href=\"page-2.html\" class=\"next\">ne...'>",
    );
  });

  it('leaves out a link no Request can be made from, and follows the others (Scrapy fails there and loses the rest)', () => {
    const logged: LogEvent[] = [];
    const subscription = defaultLogBus.events$.subscribe((event) => logged.push(event));
    try {
      const requests = response.followAll(['a.html', 'http://exa mple.com/', 'mailto:a@example.com', '/b.html']);
      expect(requests.map(String)).toEqual(['<GET http://example.com/base/dir/a.html>', '<GET http://example.com/b.html>']);
    } finally {
      subscription.unsubscribe();
    }
    // A response made by hand has no crawl: its skipped links are logged on the process-wide bus.
    expect(logged.map((e) => [e.logger, e.level, e.message])).toEqual([
      ['seine.http.response', 'WARNING', "Ignoring link 'http://exa mple.com/' on <200 http://example.com/start/page.html>: Malformed request url: http://exa mple.com/ (not a URL by the URL standard: check the host and port)"],
      ['seine.http.response', 'WARNING', "Ignoring link 'mailto:a@example.com' on <200 http://example.com/start/page.html>: Missing scheme in request url: mailto:a@example.com ('mailto:' URLs have nothing to download: leave such links out)"],
    ]);
  });

  it('hands skipped links to the handler a crawl set on the response, also from a copy of it', () => {
    const page = html('<a href="/ok">ok</a><a href="http://[::1/">bad</a>');
    const skipped: Array<[string, string, string]> = [];
    setInvalidLinkHandler(page, (from, link, error) => skipped.push([from.url, link, error.message]));
    expect(page.followAll({ css: 'a' }).map(String)).toEqual(['<GET http://example.com/ok>']);
    expect(page.replace({ url: 'http://example.com/copy' }).followAll(['http://[::1/']).map(String)).toEqual([]);
    // A response of another loaded copy of seine (no such private field) is left alone rather than failing the crawl's event stream.
    expect(() => setInvalidLinkHandler({ url: 'http://example.com/' } as unknown as Response, () => {})).not.toThrow();
    expect(skipped).toEqual([
      ['http://example.com/start/page.html', 'http://[::1/', 'Invalid IPv6 URL in request url: http://[::1/ (fix the URL, or skip the link)'],
      ['http://example.com/copy', 'http://[::1/', 'Invalid IPv6 URL in request url: http://[::1/ (fix the URL, or skip the link)'],
    ]);
  });

  it('still throws for what is not a link at all, and follow() of one bad link throws as in Scrapy', () => {
    expect(() => response.followAll(['a.html', 42 as never])).toThrow(FollowTargetError);
    expect(() => response.follow('http://exa mple.com/')).toThrow(InvalidUrlError);
  });

  it('gives an empty list when nothing matches', () => {
    expect(response.followAll({ css: 'nav a' })).toEqual([]);
    expect(response.followAll([])).toEqual([]);
  });
});

describe('follow(target, callback, options)', () => {
  it("takes the Request options after the callback, as Scrapy's keyword arguments", () => {
    const response = html(LINKS);
    const one = response.follow('page-2.html', parseItem, { cbKwargs: { page: 2 }, meta: { m: 1 } });
    expect([one.url, one.callback, one.cbKwargs, one.meta['m']]).toEqual(['http://example.com/base/dir/page-2.html', parseItem, { page: 2 }, 1]);
    const all = response.followAll({ css: 'a.next' }, parseItem, { cbKwargs: { page: 3 } });
    expect(all.map((request) => [request.url, request.callback, request.cbKwargs])).toEqual([['http://example.com/base/dir/page-2.html', parseItem, { page: 3 }]]);
    // Options alone still work, and a callback in the options too.
    expect(response.follow('x.html', { callback: parse, cbKwargs: { a: 1 } }).cbKwargs).toEqual({ a: 1 });
  });
});

// Recorded from Scrapy 2.8 by scripts/record-encoding-fixtures.py: response.follow(href).url on pages that declare no charset.
const undeclared = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/http/encodings.json', import.meta.url)), 'utf8')) as {
  cases: Array<{ name: string; body: string; contentType: string | null; follow: Record<string, string> }>;
};

describe('follow on a page that declares no charset, as Scrapy', () => {
  const cases = undeclared.cases.flatMap((c) => Object.entries(c.follow).map(([href, url]) => [c.name, href, url, c] as const));
  it.each(cases)('on a %s page, follow(%j) is %s', (_name, href, url, c) => {
    const response = new Response({ url: 'http://example.com/page', headers: c.contentType === null ? {} : { 'Content-Type': c.contentType }, body: Buffer.from(c.body, 'hex') });
    expect(response.follow(href).url).toBe(url);
  });

  it("writes an ASCII page's link to ?q=caf&eacute; as %E9 (windows-1252), as Scrapy and browsers do", () => {
    const response = new Response({ url: 'http://example.com/page', body: Buffer.from('<p><a href="/search?q=caf&eacute;">x</a></p>') });
    expect(response.encoding).toBe('windows-1252');
    expect(response.follow(response.css('a::attr(href)').get()!).url).toBe('http://example.com/search?q=caf%E9');
    expect(response.follow(response.css('a::attr(href)').get()!).encoding).toBe('windows-1252');
  });
});

describe('urljoin of a backslash: a deliberate difference from Scrapy (docs/coming-from-scrapy.md)', () => {
  const page = () => new Response({ url: 'http://example.com/page', body: Buffer.from('<p>x</p>') });

  it('reads a backslash as a slash, as browsers do (Scrapy keeps it: http://example.com/a%5Cb)', () => {
    expect(page().urljoin('a\\b')).toBe('http://example.com/a/b');
    expect(page().follow('/dir\\sub/').url).toBe('http://example.com/dir/sub/');
  });

  it('so \\\\host\\path leads to that host, where a browser goes (Scrapy: http://example.com/\\\\other.example\\x)', () => {
    expect(page().urljoin('\\\\other.example\\x')).toBe('http://other.example/x');
  });
});
