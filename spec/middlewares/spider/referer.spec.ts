import { describe, expect, it } from '@jest/globals';
import { NotConfigured } from '../../../src/contracts/control-flow.js';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { LogBus } from '../../../src/log/index.js';
import { RefererMiddleware } from '../../../src/middlewares/spider/referer.js';
import { ReferrerPolicyError } from '../../../src/middlewares/spider/referrer-policy-error.js';
import { REFERRER_POLICIES, resolveReferrerPolicy, stripUrl, type ReferrerPolicy } from '../../../src/middlewares/spider/referrer-policies.js';
import { fakeCrawler, recordLogs } from '../../helpers/fake-crawler.js';
import { collect, outputs } from '../../helpers/spider-output.js';

const CASES: [string, string][] = [
  ['https://user:pw@example.com:443/page?q=1#frag', 'https://example.com/next'],
  ['https://example.com/page', 'http://example.com/next'],
  ['http://example.com/page', 'https://other.com/'],
  ['http://example.com:8080/a?b#c', 'http://other.com/'],
  ['file:///tmp/x.html', 'http://example.com/'],
  ['s3://bucket/key', 'http://example.com/'],
  ['https://example.com/p', 'https://other.com/q'],
  ['https://example.com/p', 'data:text/plain,hi'],
];

// Printed by Scrapy 2.8's policy classes for CASES (scrapy/spidermiddlewares/referer.py).
const SCRAPY_RESULTS: Record<string, (string | null)[]> = {
  'no-referrer': [null, null, null, null, null, null, null, null],
  'no-referrer-when-downgrade': ['https://example.com/page?q=1', null, 'http://example.com/page', 'http://example.com:8080/a?b', 'file:///tmp/x.html', 's3://bucket/key', 'https://example.com/p', null],
  'same-origin': ['https://example.com/page?q=1', null, null, null, null, null, null, null],
  origin: ['https://example.com/', 'https://example.com/', 'http://example.com/', 'http://example.com:8080/', 'file:///', 's3://bucket/', 'https://example.com/', 'https://example.com/'],
  'strict-origin': ['https://example.com/', null, 'http://example.com/', 'http://example.com:8080/', 'file:///', 's3://bucket/', 'https://example.com/', null],
  'origin-when-cross-origin': ['https://example.com/page?q=1', 'https://example.com/', 'http://example.com/', 'http://example.com:8080/', 'file:///', 's3://bucket/', 'https://example.com/', 'https://example.com/'],
  'strict-origin-when-cross-origin': ['https://example.com/page?q=1', null, 'http://example.com/', 'http://example.com:8080/', 'file:///', 's3://bucket/', 'https://example.com/', null],
  'unsafe-url': ['https://example.com/page?q=1', 'https://example.com/page', 'http://example.com/page', 'http://example.com:8080/a?b', 'file:///tmp/x.html', 's3://bucket/key', 'https://example.com/p', 'https://example.com/p'],
  'scrapy-default': ['https://example.com/page?q=1', null, 'http://example.com/page', 'http://example.com:8080/a?b', null, null, 'https://example.com/p', null],
};

async function refererOf(middleware: RefererMiddleware, response: Response, request: Request): Promise<string | null> {
  const [out] = await collect(middleware.processSpiderOutput(response, outputs(request)));
  return (out as Request).headers.get('Referer');
}

const page = (url: string, headers: Record<string, string> = {}): Response => new Response({ url, headers, request: new Request(url) });

describe('referrer policies', () => {
  it.each(Object.entries(SCRAPY_RESULTS))('%s gives what Scrapy gives', (name, expected) => {
    const policy = REFERRER_POLICIES.get(name)!;
    expect(CASES.map(([from, to]) => policy.referrer(from, to))).toEqual(expected);
  });

  it('strips credentials, fragment and default port; origin-only keeps scheme, host and port', () => {
    expect(stripUrl('http://u:p@example.com:80/a/b?c=d#e')).toBe('http://example.com/a/b?c=d');
    expect(stripUrl('https://example.com:8443/a?b', true)).toBe('https://example.com:8443/');
    expect(stripUrl('')).toBeNull();
  });

  it('resolves names case-insensitively, the empty name as no-referrer-when-downgrade, and objects and classes with referrer()', () => {
    expect(resolveReferrerPolicy('Same-Origin')?.name).toBe('same-origin');
    expect(resolveReferrerPolicy('')?.name).toBe('no-referrer-when-downgrade');
    const custom: ReferrerPolicy = { referrer: () => 'x' };
    expect(resolveReferrerPolicy(custom)).toBe(custom);
    class Fixed implements ReferrerPolicy {
      referrer(): string {
        return 'fixed';
      }
    }
    expect(resolveReferrerPolicy(Fixed)?.referrer('a', 'b')).toBe('fixed');
    expect(resolveReferrerPolicy('nope')).toBeNull();
    expect(resolveReferrerPolicy(() => 1)).toBeNull();
    expect(resolveReferrerPolicy(42)).toBeNull();
  });
});

describe('RefererMiddleware', () => {
  it('sets Referer to the response URL without credentials and fragment', async () => {
    const middleware = RefererMiddleware.fromCrawler(fakeCrawler());
    expect(await refererOf(middleware, page('http://user:pw@example.com/list?page=2#top'), new Request('http://example.com/item/1'))).toBe('http://example.com/list?page=2');
  });

  it('sends no Referer from https to http, and sends one from http to https and https to https', async () => {
    const middleware = new RefererMiddleware();
    expect(await refererOf(middleware, page('https://example.com/a'), new Request('http://example.com/b'))).toBeNull();
    expect(await refererOf(middleware, page('http://example.com/a'), new Request('https://example.com/b'))).toBe('http://example.com/a');
    expect(await refererOf(middleware, page('https://example.com/a'), new Request('https://other.org/b'))).toBe('https://example.com/a');
  });

  it('keeps a Referer the spider set and leaves items alone', async () => {
    const item = { a: 1 };
    const request = new Request('http://example.com/b', { headers: { Referer: 'http://mine/' } });
    const result = await collect(new RefererMiddleware().processSpiderOutput(page('http://example.com/a'), outputs(item, request)));
    expect(result).toEqual([item, request]);
    expect(request.headers.getList('Referer')).toEqual(['http://mine/']);
  });

  it('uses meta.referrer_policy first, then the response\'s Referrer-Policy header, then REFERRER_POLICY', async () => {
    const middleware = RefererMiddleware.fromCrawler(fakeCrawler({ REFERRER_POLICY: 'origin' }));
    const from = 'http://example.com/a/b?c';
    expect(await refererOf(middleware, page(from, { 'Referrer-Policy': 'unsafe-url' }), new Request('http://x.org/', { meta: { referrer_policy: 'no-referrer' } }))).toBeNull();
    expect(await refererOf(middleware, page(from, { 'Referrer-Policy': 'unsafe-url' }), new Request('http://x.org/'))).toBe(from);
    expect(await refererOf(middleware, page(from), new Request('http://x.org/'))).toBe('http://example.com/');
  });

  it('warns once per unknown policy name from meta or header and falls back to the default', async () => {
    const bus = new LogBus();
    const log = recordLogs(bus);
    const middleware = new RefererMiddleware({ logBus: bus });
    for (let i = 0; i < 2; i++) {
      expect(await refererOf(middleware, page('http://example.com/a'), new Request('http://x.org/', { meta: { referrer_policy: 'bogus' } }))).toBe('http://example.com/a');
    }
    await refererOf(middleware, page('http://example.com/a', { 'Referrer-Policy': 'no-referrer, unsafe-url' }), new Request('http://x.org/'));
    expect(log.textLines()).toEqual([
      "WARNING [seine.spidermiddlewares.referer] Could not load referrer policy 'bogus'",
      "WARNING [seine.spidermiddlewares.referer] Could not load referrer policy 'no-referrer, unsafe-url'",
    ]);
  });

  it('rejects an unknown REFERRER_POLICY with a coded error that lists the names', () => {
    let error: unknown;
    try {
      RefererMiddleware.fromCrawler(fakeCrawler({ REFERRER_POLICY: 'strict' }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ReferrerPolicyError);
    expect((error as ReferrerPolicyError).code).toBe('SEINE_BAD_REFERRER_POLICY');
    expect((error as ReferrerPolicyError).message).toBe(
      "Could not load referrer policy 'strict' from REFERRER_POLICY: use one of 'no-referrer', 'no-referrer-when-downgrade', 'same-origin', " +
        "'origin', 'strict-origin', 'origin-when-cross-origin', 'strict-origin-when-cross-origin', 'unsafe-url', 'scrapy-default', " +
        'or an object (or class) with a referrer(responseUrl, requestUrl) method',
    );
  });

  it('switches itself off when REFERER_ENABLED is false', () => {
    expect(() => RefererMiddleware.fromCrawler(fakeCrawler({ REFERER_ENABLED: false }))).toThrow(NotConfigured);
  });

  it('re-checks the Referer of a redirected request when it is scheduled', () => {
    const crawler = fakeCrawler();
    RefererMiddleware.fromCrawler(crawler); // built for its subscription to the crawl's events
    const downgraded = new Request('http://example.com/b', { headers: { Referer: 'https://example.com/a' }, meta: { redirect_urls: ['https://example.com/b'] } });
    const kept = new Request('https://other.org/b', { headers: { Referer: 'https://example.com/a' }, meta: { redirect_urls: ['https://example.com/b'] } });
    const notRedirected = new Request('http://example.com/c', { headers: { Referer: 'https://example.com/a' } });
    for (const request of [downgraded, kept, notRedirected]) crawler.emit({ type: 'request_scheduled', request });
    expect(downgraded.headers.get('Referer')).toBeNull();
    expect(kept.headers.get('Referer')).toBe('https://example.com/a');
    expect(notRedirected.headers.get('Referer')).toBe('https://example.com/a');
  });

  it('rewrites a redirected request\'s Referer to what its policy allows', () => {
    const middleware = new RefererMiddleware({ policy: 'origin-when-cross-origin' });
    const request = new Request('https://other.org/b', { headers: { Referer: 'https://example.com/a?x' }, meta: { redirect_urls: ['https://example.com/z'] } });
    middleware.requestScheduled(request);
    expect(request.headers.get('Referer')).toBe('https://example.com/');
  });

  it('stops watching scheduled requests when the spider closes', () => {
    const crawler = fakeCrawler();
    const middleware = RefererMiddleware.fromCrawler(crawler);
    middleware.closeSpider();
    const request = new Request('http://example.com/b', { headers: { Referer: 'https://example.com/a' }, meta: { redirect_urls: ['https://example.com/b'] } });
    crawler.emit({ type: 'request_scheduled', request });
    expect(request.headers.get('Referer')).toBe('https://example.com/a');
  });
});
