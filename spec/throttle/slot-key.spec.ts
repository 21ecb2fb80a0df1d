import { describe, expect, it } from '@jest/globals';
import { urlHostname } from '../../src/throttle/slot-key.js';

describe('urlHostname', () => {
  // Expected values are Python's urlparse(url).hostname or '' (Scrapy's slot key).
  it.each([
    ['http://Example.COM/a', 'example.com'],
    ['https://user:pw@Host.example:8443/x?y#z', 'host.example'],
    ['http://[::1]:8080/', '::1'],
    ['http://[2001:DB8::1]/p', '2001:db8::1'],
    ['http://a.b.c?q=1', 'a.b.c'],
    ['http://a.b.c#frag', 'a.b.c'],
    ['file:///etc/passwd', ''],
    ['mailto:joe@example.com', ''],
    ['data:text/plain,hi', ''],
    ['http://x@y@z.com/', 'z.com'],
    ['http://host:/', 'host'],
  ])('reads %s as %j, as urlparse does', (url, host) => {
    expect(urlHostname(url)).toBe(host);
  });
});
