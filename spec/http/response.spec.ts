import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { Request } from '../../src/http/request.js';
import { Response, isResponse } from '../../src/http/response.js';
import { DetachedResponseError, NotTextResponseError } from '../../src/http/http-errors.js';

const PAGE = `<html><head><title>Quotes</title></head>
<body><div class="quote"><span class="text">“Hello”</span><a href="/author/1">by</a></div></body></html>`;

const RSS = `<?xml version="1.0"?><rss xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<item><title>One</title><dc:creator>Ann</dc:creator></item><item><title>Two</title></item></channel></rss>`;

describe('Response basics', () => {
  it('prints as <status url>, as Scrapy logs it', () => {
    const response = new Response({ url: 'http://127.0.0.1:8000/page/1/', status: 404 });
    expect(String(response)).toBe('<404 http://127.0.0.1:8000/page/1/>');
    expect(inspect(response)).toBe('<404 http://127.0.0.1:8000/page/1/>');
  });

  it('defaults to status 200, no headers and an empty body', () => {
    const response = new Response({ url: 'http://a.example/' });
    expect([response.status, response.headers.size, response.body.length, response.request, response.flags]).toEqual([200, 0, 0, null, []]);
  });

  it('refuses a status that is not an integer and a URL that is not a string', () => {
    expect(() => new Response({ url: 'http://a.example/', status: 2.5 })).toThrow(new TypeError('Response status must be an integer, got 2.5'));
    expect(() => new Response({ url: 42 as unknown as string })).toThrow(new TypeError('Response url must be a string, got number'));
  });

  it('takes a Uint8Array body as bytes', () => {
    const response = new Response({ url: 'http://a.example/', body: new Uint8Array([104, 105]) });
    expect(Buffer.isBuffer(response.body)).toBe(true);
    expect(response.text).toBe('hi');
  });

  it('gives meta and cbKwargs of its request', () => {
    const request = new Request('http://a.example/', { meta: { depth: 2 }, cbKwargs: { page: 1 } });
    const response = new Response({ url: 'http://a.example/', request });
    expect(response.meta).toBe(request.meta);
    expect(response.cbKwargs).toEqual({ page: 1 });
  });

  it('says clearly that a response without a request has no meta', () => {
    const response = new Response({ url: 'http://a.example/' });
    expect(() => response.meta).toThrow(
      new DetachedResponseError('meta', '<200 http://a.example/>'),
    );
    expect(() => response.meta).toThrow(
      'Response.meta not available, this response is not tied to any request: <200 http://a.example/> (pass { request } when constructing the Response)',
    );
    expect(() => response.cbKwargs).toThrow('Response.cbKwargs not available');
  });

  it('replaces fields into a new response and keeps the rest', () => {
    const request = new Request('http://a.example/');
    const original = new Response({ url: 'http://a.example/', status: 200, headers: { 'Content-Type': 'text/html' }, body: PAGE, request, flags: ['cached'] });
    const changed = original.replace({ status: 500 });
    expect(changed).not.toBe(original);
    expect([changed.status, changed.url, changed.request, changed.flags, changed.text]).toEqual([500, 'http://a.example/', request, ['cached'], PAGE]);
    expect(changed.headers.get('content-type')).toBe('text/html');
    expect(original.copy().status).toBe(200);
  });
});

describe('Response text', () => {
  it('decodes a string body as the UTF-8 it was written in, whatever the page declares', () => {
    const response = new Response({ url: 'http://a.example/', headers: { 'Content-Type': 'text/html; charset=windows-1252' }, body: '<p>café</p>' });
    expect(response.text).toBe('<p>café</p>');
    expect(response.encoding).toBe('utf-8');
  });

  it('writes a string body in the encoding given, and decodes it back', () => {
    const response = new Response({ url: 'http://a.example/', body: '日本語', encoding: 'sjis' });
    expect(response.body).toEqual(Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]));
    expect([response.text, response.encoding]).toEqual(['日本語', 'shift_jis']);
  });

  it('decodes bytes by the WHATWG order (here the <meta charset>)', () => {
    const body = Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>'), Buffer.from([0x93, 0x80, 0x94]), Buffer.from('</p>')]);
    const response = new Response({ url: 'http://a.example/', headers: { 'Content-Type': 'text/html' }, body });
    expect(response.text).toBe('<meta charset="windows-1252"><p>“€”</p>');
    expect(response.encoding).toBe('windows-1252');
  });

  it('lets an encoding given at construction win over the headers', () => {
    const response = new Response({ url: 'http://a.example/', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: Buffer.from([0xe9]), encoding: 'latin1' });
    expect([response.text, response.encoding]).toEqual(['é', 'windows-1252']);
    expect(response.replace({ status: 201 }).encoding).toBe('windows-1252');
  });

  it('refuses an encoding label it does not know', () => {
    expect(() => new Response({ url: 'http://a.example/', encoding: 'klingon' })).toThrow(
      new TypeError("Unknown encoding for Response: 'klingon' (use a WHATWG encoding label such as 'utf-8' or 'shift_jis')"),
    );
  });

  it('parses JSON once and returns the same value', () => {
    const response = new Response({ url: 'http://a.example/api', headers: { 'Content-Type': 'application/json' }, body: '{"items": [1, 2]}' });
    const value = response.json();
    expect(value).toEqual({ items: [1, 2] });
    expect(response.json()).toBe(value);
  });

  it('names the response when the body is not JSON', () => {
    const response = new Response({ url: 'http://a.example/api', headers: { 'Content-Type': 'text/html' }, body: '<html>' });
    expect(() => response.json()).toThrow(SyntaxError);
    expect(() => response.json()).toThrow(/^Response body is not JSON: <200 http:\/\/a\.example\/api> \(Content-Type: text\/html\): /);
  });
});

describe('Response selectors', () => {
  it('queries HTML with css() and xpath(), parsing once', () => {
    const response = new Response({ url: 'http://a.example/', headers: { 'Content-Type': 'text/html' }, body: PAGE });
    expect(response.css('span.text::text').get()).toBe('“Hello”');
    expect(response.xpath('//a/@href').get()).toBe('/author/1');
    expect(response.xpath('//title/text()').getall()).toEqual(['Quotes']);
    expect(response.selector).toBe(response.selector);
    expect(response.selector.type).toBe('html');
  });

  it('passes XPath variables through', () => {
    const response = new Response({ url: 'http://a.example/', headers: { 'Content-Type': 'text/html' }, body: PAGE });
    expect(response.xpath('//a[@href=$href]/text()', { href: '/author/1' }).get()).toBe('by');
  });

  it('parses XML responses as XML, with namespaces registered on its selector', () => {
    const response = new Response({ url: 'http://a.example/feed', headers: { 'Content-Type': 'application/rss+xml' }, body: RSS });
    expect(response.kind).toBe('xml');
    expect(response.selector.type).toBe('xml');
    expect(response.xpath('//item/title/text()').getall()).toEqual(['One', 'Two']);
    response.selector.registerNamespace('dc', 'http://purl.org/dc/elements/1.1/');
    expect(response.xpath('//dc:creator/text()').getall()).toEqual(['Ann']);
  });

  it('parses text responses as HTML, as Scrapy does', () => {
    const response = new Response({ url: 'http://a.example/x', headers: { 'Content-Type': 'text/plain' }, body: '<b>bold</b>' });
    expect(response.css('b::text').get()).toBe('bold');
  });

  it('refuses css(), xpath() and selector on a binary response, saying what it is', () => {
    const response = new Response({ url: 'http://a.example/logo.png', headers: { 'Content-Type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) });
    expect(response.kind).toBe('binary');
    expect(() => response.css('a')).toThrow(
      new NotTextResponseError('http://a.example/logo.png', 'image/png', 'css()'),
    );
    expect(() => response.css('a')).toThrow(
      "Response content isn't text: css() needs an HTML, XML or text response, but http://a.example/logo.png is binary (Content-Type: image/png); read response.body for the bytes",
    );
    expect(() => response.xpath('//a')).toThrow("Response content isn't text: xpath() needs");
    expect(() => response.selector).toThrow("Response content isn't text: selector needs");
    expect(NotTextResponseError.code).toBe('SEINE_NOT_TEXT_RESPONSE');
  });
});

describe('isResponse', () => {
  it('knows Responses by brand, also those from another loaded copy of seine', () => {
    expect(isResponse(new Response({ url: 'http://example.com/', body: '' }))).toBe(true);
    expect(isResponse({ url: 'http://example.com/', status: 200, body: Buffer.alloc(0) })).toBe(false);
    expect(isResponse(null)).toBe(false);
    const foreign = Object.create(Object.defineProperty({}, Symbol.for('seine.Response'), { value: true })) as object;
    expect(isResponse(foreign)).toBe(true);
  });
});
