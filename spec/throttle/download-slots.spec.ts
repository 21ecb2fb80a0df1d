import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { Spider } from '../../src/contracts/spider.js';
import { DownloadSlots } from '../../src/throttle/download-slots.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';

const get = (url: string, meta: Record<string, unknown> = {}): Request => new Request(url, { meta });

describe('DownloadSlots concurrency', () => {
  it('allows CONCURRENT_REQUESTS_PER_DOMAIN requests per domain, and says Infinity (wait for a finish) beyond', () => {
    const slots = new DownloadSlots({ concurrentRequests: 16, concurrentRequestsPerDomain: 2 });
    const [a1, a2, a3, b1] = [get('http://a.com/1'), get('http://a.com/2'), get('http://a.com/3'), get('http://b.com/1')];
    expect(slots.canStart(a1, 0)).toBe(true);
    slots.started(a1, 0);
    expect(slots.canStart(a2, 0)).toBe(true);
    slots.started(a2, 0);
    expect(slots.canStart(a3, 0)).toBe(Infinity);
    expect(slots.canStart(b1, 0)).toBe(true);
    expect(slots.active).toBe(2);
    expect(slots.activeIn('a.com')).toBe(2);
    slots.finished(a1, 10);
    expect(slots.canStart(a3, 10)).toBe(true);
    expect(slots.active).toBe(1);
  });

  it('caps all slots together at CONCURRENT_REQUESTS', () => {
    const slots = new DownloadSlots({ concurrentRequests: 2, concurrentRequestsPerDomain: 8 });
    slots.started(get('http://a.com/1'), 0);
    const b = get('http://b.com/1');
    slots.started(b, 0);
    expect(slots.canStart(get('http://c.com/1'), 0)).toBe(Infinity);
    slots.finished(b, 1);
    expect(slots.canStart(get('http://c.com/1'), 1)).toBe(true);
  });

  it('keys slots by IP with CONCURRENT_REQUESTS_PER_IP, using the resolver\'s cached addresses', () => {
    const addresses: Record<string, string> = { 'a.com': '10.0.0.1', 'www.a.com': '10.0.0.1' };
    const slots = new DownloadSlots({ concurrentRequestsPerDomain: 8, concurrentRequestsPerIp: 1, resolveHost: (host) => addresses[host] });
    const a = get('http://a.com/');
    expect(slots.slotKey(a)).toBe('10.0.0.1');
    expect(slots.slotKey(get('http://unresolved.com/'))).toBe('unresolved.com');
    slots.started(a, 0);
    expect(a.meta['download_slot']).toBe('10.0.0.1');
    expect(slots.canStart(get('http://www.a.com/'), 0)).toBe(Infinity);
    expect(slots.canStart(get('http://unresolved.com/'), 0)).toBe(true);
  });

  it('uses meta.download_slot as the slot, and records the slot in meta when a request starts', () => {
    const slots = new DownloadSlots({ concurrentRequestsPerDomain: 1 });
    const shared = get('http://a.com/', { download_slot: 'shared' });
    slots.started(shared, 0);
    expect(slots.canStart(get('http://b.com/', { download_slot: 'shared' }), 0)).toBe(Infinity);
    expect(slots.canStart(get('http://a.com/2'), 0)).toBe(true);
    const plain = get('http://Example.com:8080/x');
    slots.started(plain, 0);
    expect(plain.meta['download_slot']).toBe('example.com');
    expect([...slots.slots.keys()].sort()).toEqual(['a.com', 'example.com', 'shared']);
    expect(String(slots.slot('shared'))).toBe('<DownloadSlot shared concurrency=1 delay=0.00 active=1>');
  });

  it('ignores a second started() and a finished() for a request it does not know', () => {
    const slots = new DownloadSlots();
    const a = get('http://a.com/');
    slots.started(a, 0);
    slots.started(a, 0);
    expect(slots.active).toBe(1);
    slots.finished(get('http://a.com/other'), 0);
    slots.finished(a, 0);
    slots.finished(a, 0);
    expect(slots.active).toBe(0);
    expect(slots.activeIn('a.com')).toBe(0);
  });
});

describe('DownloadSlots delay', () => {
  it('waits DOWNLOAD_DELAY between two starts in one slot, not across slots', () => {
    const slots = new DownloadSlots({ downloadDelayMs: 2000, randomizeDownloadDelay: false });
    const first = get('http://a.com/1');
    expect(slots.canStart(first, 1000)).toBe(true);
    slots.started(first, 1000);
    slots.finished(first, 1100);
    expect(slots.canStart(get('http://a.com/2'), 1500)).toBe(1500);
    expect(slots.canStart(get('http://a.com/2'), 2999)).toBe(1);
    expect(slots.canStart(get('http://a.com/2'), 3000)).toBe(true);
    expect(slots.canStart(get('http://b.com/1'), 1500)).toBe(true);
  });

  it('applies the delay even when the slot has free concurrency (one start per delay, as Scrapy)', () => {
    const slots = new DownloadSlots({ concurrentRequestsPerDomain: 8, downloadDelayMs: 1000, randomizeDownloadDelay: false });
    slots.started(get('http://a.com/1'), 0);
    expect(slots.canStart(get('http://a.com/2'), 0)).toBe(1000);
  });

  it('randomizes the delay to 0.5–1.5 × DOWNLOAD_DELAY with RANDOMIZE_DOWNLOAD_DELAY, drawn once per start', () => {
    const draws = [0, 0.75];
    const slots = new DownloadSlots({ downloadDelayMs: 2000, random: () => draws.shift() ?? 0.5 });
    slots.started(get('http://a.com/1'), 0);
    expect(slots.canStart(get('http://a.com/2'), 0)).toBe(1000);
    expect(slots.canStart(get('http://a.com/2'), 400)).toBe(600);
    slots.started(get('http://a.com/2'), 1000);
    expect(slots.canStart(get('http://a.com/3'), 1000)).toBe(2500);
    expect(draws).toEqual([]);
  });

  it('sees a slot delay changed while the crawl runs (what AutoThrottle does)', () => {
    const slots = new DownloadSlots({ downloadDelayMs: 1000, randomizeDownloadDelay: false });
    slots.started(get('http://a.com/1'), 0);
    slots.slot('a.com')!.delayMs = 5000;
    expect(slots.canStart(get('http://a.com/2'), 1000)).toBe(4000);
  });

  it('forgets a slot idle for 60 s past its delay, at the next start or finish', () => {
    const slots = new DownloadSlots({ downloadDelayMs: 1000, randomizeDownloadDelay: false });
    const a = get('http://a.com/1');
    slots.started(a, 0);
    slots.finished(a, 100);
    expect(slots.slot('a.com')).toBeDefined();
    slots.started(get('http://b.com/1'), 60_000);
    expect(slots.slot('a.com')).toBeDefined();
    // Swept at most once a minute: at 100 s a.com has been idle long enough, but the next sweep is at 120 s.
    slots.started(get('http://b.com/2'), 100_000);
    expect(slots.slot('a.com')).toBeDefined();
    slots.started(get('http://b.com/3'), 120_000);
    expect(slots.slot('a.com')).toBeUndefined();
    expect(slots.slot('b.com')?.active.size).toBe(3);
  });
});

describe('DownloadSlots retry delay', () => {
  it('holds a request with meta.retry_delay_ms until that long after it was scheduled', () => {
    const slots = new DownloadSlots();
    const retry = get('http://a.com/', { retry_delay_ms: 5000 });
    slots.scheduled(retry, 1000);
    expect(slots.canStart(retry, 2000)).toBe(4000);
    expect(slots.canStart(get('http://a.com/other'), 2000)).toBe(true);
    expect(slots.canStart(retry, 6000)).toBe(true);
  });

  it('counts from the first canStart when the request was never reported scheduled', () => {
    const slots = new DownloadSlots();
    const retry = get('http://a.com/', { retry_delay_ms: 250 });
    expect(slots.canStart(retry, 100)).toBe(250);
    expect(slots.canStart(retry, 300)).toBe(50);
    expect(slots.canStart(retry, 350)).toBe(true);
  });

  it('takes the longer of the retry delay and the slot delay', () => {
    const slots = new DownloadSlots({ downloadDelayMs: 3000, randomizeDownloadDelay: false });
    slots.started(get('http://a.com/1'), 0);
    expect(slots.canStart(get('http://a.com/2', { retry_delay_ms: 1000 }), 0)).toBe(3000);
    expect(slots.canStart(get('http://a.com/3', { retry_delay_ms: 4000 }), 0)).toBe(4000);
  });

  it('ignores retry_delay_ms values that are not positive numbers', () => {
    const slots = new DownloadSlots();
    expect(slots.canStart(get('http://a.com/', { retry_delay_ms: '500' }), 0)).toBe(true);
    expect(slots.canStart(get('http://a.com/', { retry_delay_ms: -5 }), 0)).toBe(true);
  });
});

describe('DownloadSlots.fromCrawler', () => {
  it('reads CONCURRENT_REQUESTS, CONCURRENT_REQUESTS_PER_DOMAIN, DOWNLOAD_DELAY and RANDOMIZE_DOWNLOAD_DELAY', () => {
    const crawler = fakeCrawler({ CONCURRENT_REQUESTS: '3', CONCURRENT_REQUESTS_PER_DOMAIN: 2, DOWNLOAD_DELAY: '0.25', RANDOMIZE_DOWNLOAD_DELAY: 'False' });
    const slots = DownloadSlots.fromCrawler(crawler);
    slots.started(get('http://a.com/1'), 0);
    expect(slots.slot('a.com')).toMatchObject({ concurrency: 2, delayMs: 250, randomizeDelay: false });
    expect(slots.canStart(get('http://a.com/2'), 100)).toBe(150);
    slots.started(get('http://b.com/1'), 0);
    slots.started(get('http://c.com/1'), 0);
    expect(slots.canStart(get('http://d.com/1'), 0)).toBe(Infinity);
  });

  it("uses the spider's downloadDelay (seconds) and maxConcurrentRequests over the settings", () => {
    class Polite extends Spider {
      downloadDelay = 1.5;
      maxConcurrentRequests = 3;
    }
    const crawler = fakeCrawler({ DOWNLOAD_DELAY: 9, CONCURRENT_REQUESTS_PER_IP: 5 }, new Polite());
    const slots = DownloadSlots.fromCrawler(crawler, { random: () => 0.5 });
    slots.started(get('http://a.com/1'), 0);
    expect(slots.slot('a.com')).toMatchObject({ concurrency: 3, delayMs: 1500, randomizeDelay: true });
  });

  it('gives slots CONCURRENT_REQUESTS_PER_IP as their concurrency when it is set', () => {
    const crawler = fakeCrawler({ CONCURRENT_REQUESTS_PER_IP: 5 });
    const slots = DownloadSlots.fromCrawler(crawler);
    slots.started(get('http://a.com/1'), 0);
    expect(slots.slot('a.com')?.concurrency).toBe(5);
  });

  it.each([
    ['CONCURRENT_REQUESTS', 0, 'Setting CONCURRENT_REQUESTS must be at least 1, got 0 (from -s CONCURRENT_REQUESTS=0): it caps the requests downloading at once, and 0 would download nothing'],
    ['CONCURRENT_REQUESTS_PER_DOMAIN', 0, 'Setting CONCURRENT_REQUESTS_PER_DOMAIN must be at least 1, got 0 (from -s CONCURRENT_REQUESTS_PER_DOMAIN=0): it caps the requests downloading at once from one domain, and 0 would download nothing'],
    ['CONCURRENT_REQUESTS_PER_IP', -1, 'Setting CONCURRENT_REQUESTS_PER_IP must be at least 0, got -1 (from -s CONCURRENT_REQUESTS_PER_IP=-1): use 0 to limit per domain instead'],
    ['DOWNLOAD_DELAY', '-2', 'Setting DOWNLOAD_DELAY must be at least 0, got -2 (from -s DOWNLOAD_DELAY=-2): it is the number of seconds to wait between two requests to one domain'],
    ['DOWNLOAD_DELAY', 'nan', 'Setting DOWNLOAD_DELAY must be at least 0, got NaN (from -s DOWNLOAD_DELAY=nan): it is the number of seconds to wait between two requests to one domain'],
  ])('rejects %s=%j with a SettingsError that says why', (name, value, message) => {
    const crawler = fakeCrawler({ [name]: value });
    expect(() => DownloadSlots.fromCrawler(crawler)).toThrow(SettingsError);
    expect(() => DownloadSlots.fromCrawler(crawler)).toThrow(message);
  });

  it('rejects a spider attribute that is not a usable number', () => {
    class Odd extends Spider {
      downloadDelay = '2' as unknown as number;
    }
    expect(() => DownloadSlots.fromCrawler(fakeCrawler({}, new Odd()))).toThrow(
      'Spider attribute downloadDelay must be a number ≥ 0 (seconds between two requests to one domain), got "2"',
    );
    class Zero extends Spider {
      maxConcurrentRequests = 0;
    }
    expect(() => DownloadSlots.fromCrawler(fakeCrawler({}, new Zero()))).toThrow(
      'Spider attribute maxConcurrentRequests must be a number ≥ 1 (requests in flight per domain), got 0',
    );
  });

  it('rejects options out of range when constructed directly', () => {
    expect(() => new DownloadSlots({ concurrentRequests: 0 })).toThrow('DownloadSlots option concurrentRequests must be a number ≥ 1, got 0');
    expect(() => new DownloadSlots({ downloadDelayMs: -1 })).toThrow('DownloadSlots option downloadDelayMs must be a number ≥ 0, got -1');
  });
});
