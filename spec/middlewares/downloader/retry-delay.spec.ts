import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter, retryDelayMs } from '../../../src/middlewares/downloader/retry-delay.js';

const NOW = Date.UTC(2024, 0, 2, 3, 4, 5); // Tue, 02 Jan 2024 03:04:05 GMT
const options = { baseSeconds: 1, maxSeconds: 60, now: NOW };
const middle = () => 0.5; // jitter factor exactly 1
const lowest = () => 0;
const highest = () => 0.999999;

describe('retryDelayMs: exponential backoff', () => {
  it('doubles from the base with each attempt (jitter factor 1)', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelayMs(attempt, null, options, middle))).toEqual([1000, 2000, 4000, 8000, 16000, 32000]);
  });

  it('stops growing at the max', () => {
    expect([6, 7, 8, 20].map((attempt) => retryDelayMs(attempt, null, options, middle))).toEqual([32000, 60000, 60000, 60000]);
  });

  it('does not overflow on a huge attempt number', () => {
    expect(retryDelayMs(5000, null, options, middle)).toBe(60000);
  });

  it('scales by a jitter factor in [0.5, 1.5)', () => {
    expect(retryDelayMs(1, null, options, lowest)).toBe(500);
    expect(retryDelayMs(1, null, options, highest)).toBe(1500);
    expect(retryDelayMs(3, null, options, () => 0.25)).toBe(3000);
    expect(retryDelayMs(3, null, options, () => 0.75)).toBe(5000);
  });

  it('applies the jitter after the cap, so a wait reaches at most 1.5 × max', () => {
    expect(retryDelayMs(10, null, options, lowest)).toBe(30000);
    expect(retryDelayMs(10, null, options, highest)).toBe(90000);
  });

  it('keeps every jittered delay inside [0.5, 1.5) of the backoff over many draws', () => {
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(2, null, options);
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(3000);
    }
  });

  it('uses a fractional base', () => {
    expect(retryDelayMs(1, null, { ...options, baseSeconds: 0.25 }, middle)).toBe(250);
    expect(retryDelayMs(3, null, { ...options, baseSeconds: 0.25 }, middle)).toBe(1000);
  });

  it('rounds to whole milliseconds', () => {
    expect(retryDelayMs(1, null, { ...options, baseSeconds: 0.0013 }, middle)).toBe(1);
    expect(retryDelayMs(1, null, { ...options, baseSeconds: 0.0017 }, middle)).toBe(2);
  });

  it('retries at once when the base is 0, negative or not a number', () => {
    expect(retryDelayMs(3, null, { ...options, baseSeconds: 0 }, middle)).toBe(0);
    expect(retryDelayMs(3, null, { ...options, baseSeconds: -1 }, middle)).toBe(0);
    expect(retryDelayMs(3, null, { ...options, baseSeconds: Number.NaN }, middle)).toBe(0);
  });

  it('retries at once when the max is 0 or negative', () => {
    expect(retryDelayMs(3, null, { ...options, maxSeconds: 0 }, middle)).toBe(0);
    expect(retryDelayMs(3, null, { ...options, maxSeconds: -5 }, middle)).toBe(0);
  });

  it('caps below the base when the max is smaller than the base', () => {
    expect(retryDelayMs(1, null, { ...options, baseSeconds: 10, maxSeconds: 3 }, middle)).toBe(3000);
  });

  it('does not draw a random number when it does not need one', () => {
    const never = () => {
      throw new Error('random() called');
    };
    expect(retryDelayMs(1, '7', options, never)).toBe(7000);
    expect(retryDelayMs(1, null, { ...options, baseSeconds: 0 }, never)).toBe(0);
  });

  it('rejects an attempt that is not an integer of 1 or more', () => {
    for (const attempt of [0, -1, 1.5, Number.NaN]) {
      expect(() => retryDelayMs(attempt, null, options, middle)).toThrow(
        new RangeError(`retryDelayMs: attempt must be an integer of 1 or more (the retry's number), got ${String(attempt)}`),
      );
    }
  });
});

describe('retryDelayMs: Retry-After', () => {
  it('waits the seconds the server asks for, without jitter', () => {
    expect(retryDelayMs(1, '5', options, highest)).toBe(5000);
    expect(retryDelayMs(4, '5', options, lowest)).toBe(5000);
  });

  it('honours Retry-After: 0 as retry at once', () => {
    expect(retryDelayMs(3, '0', options, middle)).toBe(0);
  });

  it('caps Retry-After seconds at the max', () => {
    expect(retryDelayMs(1, '3600', options, middle)).toBe(60000);
    expect(retryDelayMs(1, '99999999999999999999', options, middle)).toBe(60000);
  });

  it('reads an HTTP date relative to now', () => {
    expect(retryDelayMs(1, 'Tue, 02 Jan 2024 03:04:35 GMT', options, middle)).toBe(30000);
  });

  it('caps an HTTP date far away at the max', () => {
    expect(retryDelayMs(1, 'Wed, 03 Jan 2024 03:04:05 GMT', options, middle)).toBe(60000);
  });

  it('retries at once for an HTTP date in the past', () => {
    expect(retryDelayMs(2, 'Mon, 01 Jan 2024 00:00:00 GMT', options, middle)).toBe(0);
  });

  it('reads the obsolete RFC 850 and asctime date forms', () => {
    expect(retryDelayMs(1, 'Tuesday, 02-Jan-24 03:04:15 GMT', options, middle)).toBe(10000);
    expect(retryDelayMs(1, 'Tue Jan  2 03:04:25 2024', options, middle)).toBe(20000);
  });

  it('trims whitespace around the value', () => {
    expect(retryDelayMs(1, '  12 ', options, middle)).toBe(12000);
  });

  it('falls back to the backoff for values it cannot read', () => {
    for (const header of ['', 'soon', '-5', '1.5', '5s', 'Tue, 99 Foo 2024']) {
      expect([header, retryDelayMs(2, header, options, middle)]).toEqual([header, 2000]);
    }
  });

  it('falls back to the backoff for a missing header', () => {
    expect(retryDelayMs(2, undefined, options, middle)).toBe(2000);
    expect(retryDelayMs(2, null, options, middle)).toBe(2000);
  });

  it('honours Retry-After even when the backoff is off (base 0)', () => {
    expect(retryDelayMs(1, '4', { ...options, baseSeconds: 0 }, middle)).toBe(4000);
  });

  it('gives 0 for Retry-After when the max is 0', () => {
    expect(retryDelayMs(1, '4', { ...options, maxSeconds: 0 }, middle)).toBe(0);
  });

  it('uses the real clock when no time is given', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const delay = retryDelayMs(1, inTenSeconds, { baseSeconds: 1, maxSeconds: 60 }, middle);
    expect(delay).toBeGreaterThan(8000);
    expect(delay).toBeLessThanOrEqual(10000);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, null otherwise', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120);
    expect(parseRetryAfter('Tue, 02 Jan 2024 03:04:06 GMT', NOW)).toBe(1);
    expect(parseRetryAfter('Tue, 02 Jan 2024 03:04:04 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('2.5', NOW)).toBeNull();
    expect(parseRetryAfter('+3', NOW)).toBeNull();
    expect(parseRetryAfter(null, NOW)).toBeNull();
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
  });
});
