import { describe, expect, it } from '@jest/globals';
import { Response, releaseDocument } from '../../src/http/response.js';

// The engine drops a response's parsed document when its callback is done
// (src/engine/scrape.ts); a response used afterwards must still answer.
describe('releaseDocument', () => {
  const page = '<html><body><a href="/a">A</a><a href="/b">B</a><p>text</p></body></html>';

  it('leaves css(), xpath() and selector giving the same results, from a fresh parse', () => {
    const response = new Response({ url: 'http://example.com/', body: page, headers: { 'Content-Type': 'text/html' } });
    const before = response.selector;
    expect(response.css('a::attr(href)').getall()).toEqual(['/a', '/b']);
    releaseDocument(response);
    expect(response.css('a::attr(href)').getall()).toEqual(['/a', '/b']);
    expect(response.xpath('//p/text()').get()).toBe('text');
    expect(response.selector).not.toBe(before);
    expect(response.selector).toBe(response.selector);
  });

  it('does nothing to a response that was never parsed', () => {
    const response = new Response({ url: 'http://example.com/', body: page, headers: { 'Content-Type': 'text/html' } });
    releaseDocument(response);
    expect(response.css('p::text').get()).toBe('text');
  });
});
