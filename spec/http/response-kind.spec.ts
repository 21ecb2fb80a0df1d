import { describe, expect, it } from '@jest/globals';
import { Headers } from '../../src/http/headers.js';
import { kindFromBody, kindFromFilename, kindFromMimeType, responseKind } from '../../src/http/response-kind.js';
import { Response } from '../../src/http/response.js';

describe('responseKind (Scrapy responsetypes.from_args)', () => {
  // [headers, url, body (latin-1), kind Scrapy 2.8 chose], recorded with scrapy.responsetypes.from_args.
  const scrapyCases: Array<[Record<string, string>, string, string, string]> = [
    [{"Content-Type": "text/html; charset=utf-8"}, "http://x/a", "{}", 'html'],
    [{"Content-Type": "TEXT/HTML"}, "http://x/a", "", 'html'],
    [{"Content-Type": "application/xhtml+xml"}, "http://x/a", "", 'html'],
    [{"Content-Type": "application/rss+xml"}, "http://x/a", "", 'xml'],
    [{"Content-Type": "application/atom+xml"}, "http://x/a", "", 'xml'],
    [{"Content-Type": "text/xml"}, "http://x/a", "", 'xml'],
    [{"Content-Type": "application/xml"}, "http://x/a", "", 'xml'],
    [{"Content-Type": "application/json"}, "http://x/a", "", 'text'],
    [{"Content-Type": "application/javascript"}, "http://x/a", "", 'text'],
    [{"Content-Type": "text/plain"}, "http://x/a", "", 'text'],
    [{"Content-Type": "text/csv"}, "http://x/a", "", 'text'],
    [{"Content-Type": "image/png"}, "http://x/a.png", "\u0089PNG\r\n\u001a\n\u0000\u0000", 'binary'],
    [{"Content-Type": "image/svg+xml"}, "http://x/a.svg", "<?xml version=\"1.0\"?><svg/>", 'xml'],
    [{"Content-Type": "application/octet-stream"}, "http://x/page.html", "\u0000\u0001", 'html'],
    [{"Content-Type": "application/octet-stream"}, "http://x/data.bin", "\u0000\u0001\u0002", 'binary'],
    [{"Content-Type": "application/ld+json"}, "http://x/a", "{\"a\": 1}", 'text'],
    [{"Content-Type": "application/pdf"}, "http://x/a.pdf", "%PDF-1.4\n\u0001\u0002\u0003", 'binary'],
    [{}, "http://x/feed.rss", "", 'xml'],
    [{}, "http://x/page.HTML", "", 'html'],
    [{}, "http://x/page.html?x=1", "<html><body>x</body></html>", 'html'],
    [{}, "http://x/data.json", "", 'text'],
    [{}, "http://x/a.txt", "\u0001\u0002", 'text'],
    [{}, "http://x/a.tar.gz", "hello", 'text'],
    [{}, "http://x/", "<html><body>x</body></html>", 'html'],
    [{}, "http://x/", "<?xml version=\"1.0\"?><rss/>", 'xml'],
    [{}, "http://x/", "<!DOCTYPE html>\n<title>x</title>", 'html'],
    [{}, "http://x/", "just some text\n", 'text'],
    [{}, "http://x/", "\u0000h\u0000e\u0000l\u0000l\u0000o", 'text'],
    [{}, "http://x/", "\u001b[0m binary", 'binary'],
    [{"Content-Disposition": "attachment; filename=\"report.csv\""}, "http://x/download", "\u0001", 'text'],
    [{"Content-Disposition": "attachment; filename=page.html"}, "http://x/download", "\u0001", 'html'],
    [{"Content-Type": "application/octet-stream", "Content-Disposition": "attachment; filename=\"a.xml\""}, "http://x/dl", "\u0001", 'xml'],
    [{}, "http://x/", "", 'text'],
  ];

  it.each(scrapyCases)('gives Scrapy’s kind for headers %j, url %s, body %j', (headers, url, body, kind) => {
    const h = new Headers(headers);
    const bytes = Buffer.from(body, 'latin1');
    expect(responseKind({ contentType: h.get('content-type'), contentDisposition: h.get('content-disposition') }, bytes, url)).toBe(kind);
    expect(new Response({ url, headers, body: bytes }).kind).toBe(kind);
  });

  it('accepts a bare Content-Type as the first argument', () => {
    expect(responseKind('text/html', Buffer.alloc(0))).toBe('html');
    expect(responseKind(null, Buffer.from('plain'))).toBe('text');
  });

  it('finds HTML that Scrapy’s exact `<html>` / `<!doctype html>` match misses (Scrapy: text)', () => {
    const html4 = '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">\n<html lang="en"><body>x</body></html>';
    expect(kindFromBody(Buffer.from(html4))).toBe('html');
    expect(kindFromBody(Buffer.from('<HTML\n lang="en">'))).toBe('html');
    expect(kindFromBody(Buffer.from('<htmlx>'))).toBe('text');
  });

  it('looks only at the first 5,000 bytes of the body', () => {
    expect(kindFromBody(Buffer.from('a'.repeat(5000) + '\x01'))).toBe('text');
    expect(kindFromBody(Buffer.from('a'.repeat(4999) + '\x01'))).toBe('binary');
  });

  it('maps types and extensions as Scrapy’s tables do', () => {
    expect(kindFromMimeType('text/x-unknown')).toBe('text');
    expect(kindFromMimeType('application/x-unknown')).toBeNull();
    expect(kindFromFilename('http://x/a.xsd')).toBe('xml');
    expect(kindFromFilename('http://x/a.py')).toBe('text');
    expect(kindFromFilename('http://x/.html')).toBeNull();
    expect(kindFromFilename('http://x/a.html.gz')).toBeNull();
    expect(kindFromFilename('http://x/a.png')).toBeNull();
  });
});
