import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { FingerprintDupeFilter } from '../../src/scheduler/dupe-filter.js';

describe('FingerprintDupeFilter', () => {
  it('says a request was seen when its fingerprint was seen before', () => {
    const fingerprints: string[] = [];
    const filter = new FingerprintDupeFilter((request) => {
      fingerprints.push(request.url);
      return request.url.replace(/#.*$/, '');
    });
    expect(filter.seen(new Request('http://a/1'))).toBe(false);
    expect(filter.seen(new Request('http://a/1#top'))).toBe(true);
    expect(filter.seen(new Request('http://a/2'))).toBe(false);
    expect(filter.seen(new Request('http://a/2'))).toBe(true);
    expect(filter.size).toBe(2);
    expect(fingerprints).toEqual(['http://a/1', 'http://a/1#top', 'http://a/2', 'http://a/2']);
  });
});
