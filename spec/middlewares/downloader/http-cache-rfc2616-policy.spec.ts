/**
 * RFC2616Policy against Scrapy 2.8's decisions on the same requests and
 * responses (spec/fixtures/http-cache/rfc2616-policy.json, recorded by
 * scripts/record-httpcache-policy-fixtures.py with the clock pinned).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { Request } from '../../../src/http/request.js';
import { Response } from '../../../src/http/response.js';
import { RFC2616Policy } from '../../../src/middlewares/downloader/http-cache-rfc2616-policy.js';
import { fakeCrawler } from '../../helpers/fake-crawler.js';

interface PolicyCase {
  name: string;
  status: number;
  headers: Record<string, string>;
  requestHeaders: Record<string, string>;
  settings: { HTTPCACHE_ALWAYS_STORE?: boolean; HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS?: string[] };
  shouldCacheRequest: boolean;
  shouldCacheResponse: boolean;
  fresh: boolean;
  validators: Record<string, string>;
}

const FIXTURE = JSON.parse(readFileSync(new URL('../../fixtures/http-cache/rfc2616-policy.json', import.meta.url), 'utf8')) as {
  now: number;
  cases: PolicyCase[];
  validity: Array<{ name: string; cacheControl: string | null; status: number; valid: boolean }>;
  requests: Array<{ url: string; shouldCacheRequest: boolean }>;
};

function policyFor(settings: PolicyCase['settings']): RFC2616Policy {
  return new RFC2616Policy({
    alwaysStore: settings.HTTPCACHE_ALWAYS_STORE ?? false,
    ignoreResponseCacheControls: settings.HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS ?? [],
    now: () => FIXTURE.now * 1000,
  });
}

function responseOf(c: PolicyCase, request: Request): Response {
  return new Response({ url: 'http://example.com/page', status: c.status, headers: c.headers, body: '<html></html>', request });
}

describe('RFC2616Policy decides as Scrapy 2.8 does', () => {
  it.each(FIXTURE.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const request = new Request('http://example.com/page', { headers: c.requestHeaders });
    const response = responseOf(c, request);
    const decided = {
      shouldCacheRequest: policyFor(c.settings).shouldCacheRequest(request),
      shouldCacheResponse: policyFor(c.settings).shouldCacheResponse(response),
    };
    const fresh = new Request('http://example.com/page', { headers: c.requestHeaders });
    const isFresh = policyFor(c.settings).isCachedResponseFresh(response, fresh);
    const validators = Object.fromEntries(['If-None-Match', 'If-Modified-Since'].filter((name) => fresh.headers.has(name)).map((name) => [name, fresh.headers.get(name)]));
    expect({ ...decided, fresh: isFresh, validators }).toEqual({
      shouldCacheRequest: c.shouldCacheRequest,
      shouldCacheResponse: c.shouldCacheResponse,
      fresh: c.fresh,
      validators: c.validators,
    });
  });

  it.each(FIXTURE.validity.map((c) => [c.name, c] as const))('after revalidation: %s', (_name, c) => {
    const request = new Request('http://example.com/page');
    const cached = new Response({ url: request.url, headers: c.cacheControl === null ? {} : { 'Cache-Control': c.cacheControl }, body: 'old', request });
    const response = new Response({ url: request.url, status: c.status, body: 'new', request });
    expect(new RFC2616Policy().isCachedResponseValid(cached, response)).toBe(c.valid);
  });

  it.each(FIXTURE.requests.map((c) => [c.url, c.shouldCacheRequest] as const))('caches requests for %s: %s', (url, expected) => {
    expect(new RFC2616Policy().shouldCacheRequest(new Request(url))).toBe(expected);
  });
});

describe('RFC2616Policy from settings', () => {
  it('reads HTTPCACHE_ALWAYS_STORE, HTTPCACHE_IGNORE_SCHEMES and HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS', () => {
    const policy = RFC2616Policy.fromCrawler(fakeCrawler({
      HTTPCACHE_ALWAYS_STORE: 'true',
      HTTPCACHE_IGNORE_SCHEMES: 'https,file',
      HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS: '["No-Store"]',
    }));
    expect([policy.alwaysStore, [...policy.ignoreSchemes], policy.ignoreResponseCacheControls]).toEqual([true, ['https', 'file'], ['no-store']]);
    expect(policy.shouldCacheRequest(new Request('https://example.com/'))).toBe(false);
    const request = new Request('http://example.com/');
    expect(policy.shouldCacheResponse(new Response({ url: request.url, headers: { 'Cache-Control': 'no-store' }, request }))).toBe(true);
  });

  it('uses the real clock by default: a response dated now with max-age=60 is fresh, one dated two minutes ago is not', () => {
    const policy = new RFC2616Policy();
    const request = new Request('http://example.com/');
    const dated = (msAgo: number) => new Response({ url: request.url, headers: { Date: new Date(Date.now() - msAgo).toUTCString(), 'Cache-Control': 'max-age=60' }, request });
    expect(policy.isCachedResponseFresh(dated(0), request)).toBe(true);
    expect(policy.isCachedResponseFresh(dated(120_000), request)).toBe(false);
  });
});
