#!/usr/bin/env python3
"""Records what Scrapy 2.8's RFC2616Policy decides for a set of requests and
cached responses, into spec/fixtures/http-cache/rfc2616-policy.json, which
spec/middlewares/downloader/http-cache-rfc2616-policy.spec.ts replays
against seine's RFC2616Policy. Run with /usr/bin/python3 (Debian's
python3-scrapy); the clock is pinned so that the results do not depend on
when this runs."""
import json
from pathlib import Path

import scrapy.extensions.httpcache as httpcache
from scrapy.http import HtmlResponse, Request
from scrapy.settings import Settings

NOW = 1_700_000_000  # 2023-11-14 22:13:20 GMT
httpcache.time = lambda: NOW


def http_date(seconds):
    from email.utils import formatdate
    return formatdate(seconds, usegmt=True)


D = http_date
CASES = [
    # (name, status, response headers, request headers, settings)
    ('no headers at all', 200, {}, {}, {}),
    ('max-age, fresh', 200, {'Date': D(NOW - 10), 'Cache-Control': 'max-age=60'}, {}, {}),
    ('max-age, stale', 200, {'Date': D(NOW - 100), 'Cache-Control': 'max-age=60', 'ETag': '"v1"'}, {}, {}),
    ('max-age without Date counts from now', 200, {'Cache-Control': 'max-age=60'}, {}, {}),
    ('negative max-age is 0', 200, {'Date': D(NOW), 'Cache-Control': 'max-age=-5'}, {}, {}),
    ('quoted max-age is ignored, Expires used', 200, {'Date': D(NOW - 10), 'Cache-Control': 'max-age="60"', 'Expires': D(NOW + 50)}, {}, {}),
    ('Age header older than max-age', 200, {'Date': D(NOW - 10), 'Cache-Control': 'max-age=60', 'Age': '100'}, {}, {}),
    ('Age header garbage is ignored', 200, {'Date': D(NOW - 10), 'Cache-Control': 'max-age=60', 'Age': 'x'}, {}, {}),
    ('Expires in the future', 200, {'Date': D(NOW - 10), 'Expires': D(NOW + 100)}, {}, {}),
    ('Expires in the past', 200, {'Date': D(NOW - 10), 'Expires': D(NOW - 5), 'Last-Modified': D(NOW - 1000)}, {}, {}),
    ('Expires: 0 is in the past', 200, {'Date': D(NOW - 10), 'Expires': '0'}, {}, {}),
    ('Expires without Date', 200, {'Expires': D(NOW + 100)}, {}, {}),
    ('Last-Modified heuristic, fresh', 200, {'Date': D(NOW - 10), 'Last-Modified': D(NOW - 1010)}, {}, {}),
    ('Last-Modified heuristic, stale', 200, {'Date': D(NOW - 200), 'Last-Modified': D(NOW - 1200)}, {}, {}),
    ('Last-Modified after Date', 200, {'Date': D(NOW - 10), 'Last-Modified': D(NOW + 100)}, {}, {}),
    ('ETag only', 200, {'Date': D(NOW - 10), 'ETag': '"abc"'}, {}, {}),
    ('ETag and Last-Modified, both validators set', 200, {'Date': D(NOW - 1000), 'ETag': 'W/"abc"', 'Last-Modified': D(NOW - 1001)}, {}, {}),
    ('301 without expiry is fresh for a year', 301, {'Date': D(NOW - 10), 'Location': '/x'}, {}, {}),
    ('308 a year later', 308, {'Date': D(NOW - 3600 * 24 * 366), 'Location': '/x'}, {}, {}),
    ('302 without expiry', 302, {'Date': D(NOW - 10), 'Location': '/x'}, {}, {}),
    ('203 with ETag', 203, {'ETag': '"a"'}, {}, {}),
    ('401 with Last-Modified', 401, {'Last-Modified': D(NOW - 100)}, {}, {}),
    ('404 with ETag', 404, {'ETag': '"a"'}, {}, {}),
    ('404 with max-age', 404, {'Date': D(NOW), 'Cache-Control': 'max-age=60'}, {}, {}),
    ('304', 304, {'Cache-Control': 'max-age=60'}, {}, {}),
    ('206 with Expires', 206, {'Expires': D(NOW + 10)}, {}, {}),
    ('response no-store', 200, {'Cache-Control': 'no-store, max-age=60'}, {}, {}),
    ('response no-store ignored by setting', 200, {'Date': D(NOW), 'Cache-Control': 'no-store, max-age=60'}, {}, {'HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS': ['no-store']}),
    ('response no-cache', 200, {'Date': D(NOW), 'Cache-Control': 'no-cache, max-age=60', 'ETag': '"n"'}, {}, {}),
    ('response no-cache ignored by setting', 200, {'Date': D(NOW), 'Cache-Control': 'no-cache, max-age=60'}, {}, {'HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS': ['no-cache']}),
    ('request no-cache', 200, {'Date': D(NOW), 'Cache-Control': 'max-age=60'}, {'Cache-Control': 'no-cache'}, {}),
    ('request no-cache is not ignored by the setting', 200, {'Date': D(NOW), 'Cache-Control': 'max-age=60'}, {'Cache-Control': 'no-cache'}, {'HTTPCACHE_IGNORE_RESPONSE_CACHE_CONTROLS': ['no-cache']}),
    ('request no-store', 200, {'Date': D(NOW), 'Cache-Control': 'max-age=60'}, {'Cache-Control': 'no-store'}, {}),
    ('request max-age shortens', 200, {'Date': D(NOW - 30), 'Cache-Control': 'max-age=60'}, {'Cache-Control': 'max-age=10'}, {}),
    ('request max-age longer changes nothing', 200, {'Date': D(NOW - 30), 'Cache-Control': 'max-age=60'}, {'Cache-Control': 'max-age=1000'}, {}),
    ('request max-stale without value', 200, {'Date': D(NOW - 100), 'Cache-Control': 'max-age=60'}, {'Cache-Control': 'max-stale'}, {}),
    ('request max-stale enough', 200, {'Date': D(NOW - 100), 'Cache-Control': 'max-age=60'}, {'Cache-Control': 'max-stale=50'}, {}),
    ('request max-stale too short', 200, {'Date': D(NOW - 100), 'Cache-Control': 'max-age=60', 'ETag': '"s"'}, {'Cache-Control': 'max-stale=20'}, {}),
    ('request max-stale garbage', 200, {'Date': D(NOW - 100), 'Cache-Control': 'max-age=60'}, {'Cache-Control': 'max-stale=x'}, {}),
    ('max-stale but must-revalidate', 200, {'Date': D(NOW - 100), 'Cache-Control': 'max-age=60, must-revalidate'}, {'Cache-Control': 'max-stale'}, {}),
    ('always store a bare 200', 200, {}, {}, {'HTTPCACHE_ALWAYS_STORE': True}),
    ('always store does not store no-store', 200, {'Cache-Control': 'no-store'}, {}, {'HTTPCACHE_ALWAYS_STORE': True}),
    ('always store does not store 304', 304, {}, {}, {'HTTPCACHE_ALWAYS_STORE': True}),
    ('Date in the future', 200, {'Date': D(NOW + 100), 'Cache-Control': 'max-age=10'}, {}, {}),
    ('Date at the epoch counts as now', 200, {'Date': D(0), 'Cache-Control': 'max-age=10'}, {}, {}),
]

# (name, cached response Cache-Control, new response status)
VALIDITY = [
    ('304 keeps the cached response', None, 304),
    ('200 replaces it', None, 200),
    ('500 keeps it', None, 500),
    ('503 keeps it', 'max-age=0', 503),
    ('500 with must-revalidate replaces it', 'must-revalidate', 500),
    ('404 replaces it', None, 404),
]


def policy(settings):
    return httpcache.RFC2616Policy(Settings(settings))


def main():
    out = {'now': NOW, 'cases': [], 'validity': [], 'requests': []}
    for name, status, headers, req_headers, settings in CASES:
        request = Request('http://example.com/page', headers=req_headers)
        response = HtmlResponse('http://example.com/page', status=status, headers=headers, body=b'<html></html>', request=request)
        p = policy(settings)
        record = {
            'name': name,
            'status': status,
            'headers': headers,
            'requestHeaders': req_headers,
            'settings': settings,
            'shouldCacheRequest': p.should_cache_request(request),
            'shouldCacheResponse': p.should_cache_response(response, request),
        }
        # A fresh Request: freshness may add validators to it.
        request = Request('http://example.com/page', headers=req_headers)
        record['fresh'] = policy(settings).is_cached_response_fresh(response, request)
        record['validators'] = {
            k: request.headers.get(k).decode() for k in ('If-None-Match', 'If-Modified-Since') if k in request.headers
        }
        out['cases'].append(record)
    for name, cc, status in VALIDITY:
        request = Request('http://example.com/page')
        cached = HtmlResponse('http://example.com/page', headers={'Cache-Control': cc} if cc else {}, body=b'old')
        response = HtmlResponse('http://example.com/page', status=status, body=b'new')
        out['validity'].append({'name': name, 'cacheControl': cc, 'status': status, 'valid': policy({}).is_cached_response_valid(cached, response, request)})
    for url in ('http://example.com/', 'https://example.com/', 'file:///tmp/x.html', 'data:,hi', 'FILE:///tmp/x.html'):
        out['requests'].append({'url': url, 'shouldCacheRequest': policy({}).should_cache_request(Request(url))})
    target = Path(__file__).resolve().parent.parent / 'spec' / 'fixtures' / 'http-cache' / 'rfc2616-policy.json'
    target.write_text(json.dumps(out, indent=1) + '\n')
    print(f'{len(out["cases"])} cases, {len(out["validity"])} validity cases -> {target}')


if __name__ == '__main__':
    main()
