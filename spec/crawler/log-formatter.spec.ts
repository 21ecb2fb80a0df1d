/** The `Crawled` line as Scrapy's LogFormatter.crawled writes it, flags included. */
import { describe, expect, it } from '@jest/globals';
import { logLineFor } from '../../src/crawler/log-formatter.js';
import { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';

function crawled(requestFlags: string[], responseFlags: string[]): string | undefined {
  const request = new Request('http://127.0.0.1:8000/a', { flags: requestFlags, headers: { Referer: 'http://127.0.0.1:8000/' } });
  const response = new Response({ url: request.url, status: 200, request, flags: responseFlags });
  return logLineFor({ type: 'response_received', request, response })?.message;
}

describe('the Crawled line', () => {
  it('is Scrapy’s without flags', () => {
    expect(crawled([], [])).toBe('Crawled (200) <GET http://127.0.0.1:8000/a> (referer: http://127.0.0.1:8000/)');
  });

  it('prints flags as Python lists: the request’s after it, the response’s at the end', () => {
    expect(crawled([], ['cached'])).toBe("Crawled (200) <GET http://127.0.0.1:8000/a> (referer: http://127.0.0.1:8000/) ['cached']");
    expect(crawled(['retried'], ['cached', "it's"])).toBe(
      `Crawled (200) <GET http://127.0.0.1:8000/a> ['retried'] (referer: http://127.0.0.1:8000/) ['cached', "it's"]`,
    );
  });
});
