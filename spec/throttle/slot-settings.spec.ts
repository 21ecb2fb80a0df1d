import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { Spider } from '../../src/contracts/spider.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { DownloadSlots } from '../../src/throttle/download-slots.js';
import { rateIntervalMs, readSlotSettings } from '../../src/throttle/slot-settings.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';

const get = (url: string, meta: Record<string, unknown> = {}): Request => new Request(url, { meta });

describe('rateIntervalMs', () => {
  it.each([
    ['2/s', 500],
    ['30/m', 2000],
    ['30 / m', 2000],
    ['1/h', 3_600_000],
    ['0.5/s', 2000],
  ])('reads %j as one start every %d ms (a bucket of one token: never a burst)', (rate, ms) => {
    expect(rateIntervalMs(rate)).toBe(ms);
  });

  it.each(['30/min', '0/m', 'abc', '-1/s', '10', '/s', '2/d', ''])('does not read %j', (rate) => {
    expect(rateIntervalMs(rate)).toBeNull();
  });
});

describe('readSlotSettings (DOWNLOAD_SLOTS)', () => {
  it('reads Scrapy\'s keys and rate', () => {
    const slots = readSlotSettings({ 'a.com': { concurrency: 1, delay: 2, randomize_delay: false }, b: { rate: '10/s' } });
    expect(slots.get('a.com')).toEqual({ concurrency: 1, delayMs: 2000, randomizeDelay: false });
    expect(slots.get('b')).toEqual({ rateIntervalMs: 100, rate: '10/s' });
  });

  it.each([
    [{ 'a.com': { rate: '30/min' } }, `Setting DOWNLOAD_SLOTS (from -s DOWNLOAD_SLOTS=x): slot "a.com" has rate "30/min": write 'N/s', 'N/m' or 'N/h' with N > 0 (e.g. '30/m': at most 30 requests a minute, one every 2 s)`],
    [{ 'a.com': { rate: '0/m' } }, `slot "a.com" has rate "0/m": write 'N/s'`],
    [{ 'a.com': { rate: 'abc' } }, `slot "a.com" has rate "abc"`],
    [{ 'a.com': { rate: 30 } }, `slot "a.com" has rate 30`],
    [{ 'a.com': { delay: -1 } }, 'slot "a.com" has delay -1: write a number of seconds of 0 or more'],
    [{ 'a.com': { concurrency: 0 } }, 'slot "a.com" has concurrency 0: write a whole number of 1 or more'],
    [{ 'a.com': { randomize_delay: 'yes' } }, 'slot "a.com" has randomize_delay "yes": write true or false'],
    [{ 'a.com': { rate: '2/s', delai: 1 } }, 'slot "a.com" has "delai", which seine does not know: use "concurrency", "delay", "randomize_delay", "rate"'],
    [{ 'a.com': 3 }, 'slot "a.com" is 3: give it an object'],
  ])('rejects %j with one line naming the slot and what to write', (value, message) => {
    expect(() => readSlotSettings(value, '-s DOWNLOAD_SLOTS=x')).toThrow(SettingsError);
    expect(() => readSlotSettings(value, '-s DOWNLOAD_SLOTS=x')).toThrow(message);
  });
});

describe('DownloadSlots with DOWNLOAD_SLOTS', () => {
  it('gives a listed slot its own concurrency and delay over CONCURRENT_REQUESTS_PER_DOMAIN, DOWNLOAD_DELAY and the spider', () => {
    class Polite extends Spider {
      downloadDelay = 5;
      maxConcurrentRequests = 4;
    }
    const crawler = fakeCrawler(
      { DOWNLOAD_DELAY: 3, CONCURRENT_REQUESTS_PER_DOMAIN: 8, DOWNLOAD_SLOTS: { 'a.com': { concurrency: 1, delay: 0.5, randomize_delay: false } } },
      new Polite(),
    );
    const slots = DownloadSlots.fromCrawler(crawler);
    const first = get('http://a.com/1');
    slots.started(first, 0);
    expect(slots.slot('a.com')).toMatchObject({ concurrency: 1, delayMs: 500, randomizeDelay: false, minDelayMs: 500 });
    expect(slots.canStart(get('http://a.com/2'), 100)).toBe(Infinity);
    slots.finished(first, 100);
    expect(slots.canStart(get('http://a.com/2'), 100)).toBe(400);
    slots.started(get('http://b.com/1'), 0);
    expect(slots.slot('b.com')).toMatchObject({ concurrency: 4, delayMs: 5000 });
  });

  it('reads DOWNLOAD_SLOTS given as JSON on the command line', () => {
    const slots = DownloadSlots.fromCrawler(fakeCrawler({ DOWNLOAD_SLOTS: '{"a.com":{"rate":"2/s"}}' }));
    slots.started(get('http://a.com/1'), 1000);
    expect(slots.canStart(get('http://a.com/2'), 1000)).toBe(500);
    expect(String(slots.slot('a.com'))).toBe('<DownloadSlot a.com concurrency=8 delay=0.00 rate=2/s active=1>');
  });

  it('fails when the crawl starts, naming the setting\'s source', () => {
    expect(() => DownloadSlots.fromCrawler(fakeCrawler({ DOWNLOAD_SLOTS: '{"a.com":{"rate":"30/min"}}' }))).toThrow(
      `Setting DOWNLOAD_SLOTS (from -s DOWNLOAD_SLOTS={"a.com":{"rate":"30/min"}}): slot "a.com" has rate "30/min"`,
    );
  });

  it('applies to a request\'s meta.download_slot', () => {
    const slots = DownloadSlots.fromCrawler(fakeCrawler({ DOWNLOAD_SLOTS: { api: { concurrency: 1 } } }));
    slots.started(get('http://a.com/x', { download_slot: 'api' }), 0);
    expect(slots.canStart(get('http://b.com/y', { download_slot: 'api' }), 0)).toBe(Infinity);
    expect(slots.canStart(get('http://b.com/y'), 0)).toBe(true);
  });
});

describe('DownloadSlots rate', () => {
  const rated = (rate: string): DownloadSlots =>
    new DownloadSlots({ concurrentRequestsPerDomain: 8, slotSettings: readSlotSettings({ 'a.com': { rate } }) });

  it('spaces the starts of a slot evenly, whatever its concurrency: 30/m is one start every 2 s, never 30 at once', () => {
    const slots = rated('30/m');
    const starts: number[] = [];
    for (let now = 0; now <= 10_000; now += 100) {
      const request = get(`http://a.com/${now}`);
      if (slots.canStart(request, now) === true) {
        slots.started(request, now);
        starts.push(now);
      }
    }
    expect(starts).toEqual([0, 2000, 4000, 6000, 8000, 10_000]);
  });

  it('is not randomized and is kept apart from the delay (AutoThrottle changes only the delay)', () => {
    const slots = new DownloadSlots({ randomizeDownloadDelay: true, random: () => 0, slotSettings: readSlotSettings({ 'a.com': { rate: '1/s' } }) });
    slots.started(get('http://a.com/1'), 0);
    slots.slot('a.com')!.delayMs = 0;
    expect(slots.canStart(get('http://a.com/2'), 600)).toBe(400);
  });

  it('leaves other slots alone', () => {
    const slots = rated('1/h');
    slots.started(get('http://a.com/1'), 0);
    expect(slots.canStart(get('http://b.com/1'), 0)).toBe(true);
  });
});

describe('DownloadSlots.pauseSlot', () => {
  it('holds every request of the slot until the pause ends, and no other slot', () => {
    const slots = new DownloadSlots();
    expect(slots.pauseSlot('a.com', 2000)).toBe(true);
    expect(slots.canStart(get('http://a.com/1'), 500)).toBe(1500);
    expect(slots.canStart(get('http://a.com/2', { download_slot: 'a.com' }), 1999)).toBe(1);
    expect(slots.canStart(get('http://b.com/1'), 500)).toBe(true);
    expect(slots.canStart(get('http://a.com/1'), 2000)).toBe(true);
  });

  it('keeps the later end when paused twice', () => {
    const slots = new DownloadSlots();
    expect(slots.pauseSlot('a.com', 5000)).toBe(true);
    expect(slots.pauseSlot('a.com', 3000)).toBe(false);
    expect(slots.canStart(get('http://a.com/1'), 1000)).toBe(4000);
  });
});

describe('DownloadSlots with a shared rate', () => {
  it('waits for a reservation, then starts at the reserved time, and asks for the next one after a start', async () => {
    const asked: Array<[string, number]> = [];
    const waits = [0, 300];
    let clock = 1000;
    const slots = new DownloadSlots({ clock: () => clock, slotSettings: readSlotSettings({ 'a.com': { rate: '4/s' } }) });
    slots.shareRates({
      reserve: async (slot, interval) => {
        asked.push([slot, interval]);
        return waits.shift()!;
      },
    });
    const first = get('http://a.com/1');
    const wait = slots.canStart(first, clock);
    expect(typeof wait === 'number' && wait > 0 && wait < 50).toBe(true);
    expect(slots.canStart(first, clock)).toBe(wait); // one reservation at a time
    await Promise.resolve();
    expect(slots.canStart(first, clock)).toBe(true);
    slots.started(first, clock);
    slots.canStart(get('http://a.com/2'), clock);
    await Promise.resolve();
    expect(slots.canStart(get('http://a.com/2'), clock)).toBe(300);
    clock += 300;
    expect(slots.canStart(get('http://a.com/2'), clock)).toBe(true);
    expect(asked).toEqual([['a.com', 250], ['a.com', 250]]);
  });

  it('gives up a reservation left unused for more than an interval, and asks for a fresh one', async () => {
    let clock = 0;
    let asked = 0;
    const slots = new DownloadSlots({ clock: () => clock, slotSettings: readSlotSettings({ 'a.com': { rate: '4/s' } }) });
    slots.shareRates({ reserve: async () => (asked++, 0) });
    slots.canStart(get('http://a.com/1'), clock);
    await Promise.resolve();
    clock = 200;
    expect(slots.canStart(get('http://a.com/1'), clock)).toBe(true);
    clock = 300;
    expect(slots.canStart(get('http://a.com/1'), clock)).not.toBe(true);
    expect(asked).toBe(2);
  });
});
