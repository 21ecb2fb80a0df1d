/** The `Crawled` line as Scrapy's LogFormatter.crawled writes it, flags included. */
import { describe, expect, it } from '@jest/globals';
import { logLevelOf, logLineFor } from '../../src/crawler/log-formatter.js';
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

describe('logLevelOf', () => {
  it('names the level of the line logLineFor would give, for every event, without building it', () => {
    const request = new Request('http://127.0.0.1:8000/a');
    const withErrback = new Request('http://127.0.0.1:8000/b', { errback: () => undefined });
    const response = new Response({ url: request.url, status: 200, request });
    const error = new Error('boom');
    const ignore = Object.assign(new Error('ignored'), { name: 'IgnoreRequest' });
    const events: Parameters<typeof logLineFor>[0][] = [
      { type: 'engine_started' },
      { type: 'request_scheduled', request },
      { type: 'request_dropped', request, reason: 'duplicate' },
      { type: 'response_received', request, response },
      { type: 'download_error', request, error },
      { type: 'download_error', request: withErrback, error },
      { type: 'download_error', request, error: ignore },
      { type: 'item_scraped', item: { a: 1 }, response },
      { type: 'item_dropped', item: { a: 1 }, response, error },
      { type: 'item_error', item: { a: 1 }, response, error },
      { type: 'spider_error', error, response },
      { type: 'engine_error', stage: 'download', request, error },
      { type: 'spider_closed', reason: 'finished' },
    ];
    for (const event of events) expect([event.type, logLevelOf(event)]).toEqual([event.type, logLineFor(event)?.level ?? null]);
  });
});
