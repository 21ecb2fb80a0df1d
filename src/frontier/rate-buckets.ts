import type { Redis } from 'ioredis';
import { lazyPackage } from '../errors/lazy-package.js';
import type { SharedRate } from '../throttle/shared-rate.js';

const loadIoredis = lazyPackage<typeof import('ioredis')>('ioredis', 'a Redis frontier');

/**
 * RESERVE key intervalMs → the milliseconds from now until the start it
 * reserved. The key holds the time the slot's next start is allowed
 * (GCRA's "theoretical arrival time" with no burst: a bucket of one token).
 * The clock is Redis's own (TIME), so workers whose clocks differ still
 * share one schedule. The key expires a second after its time has passed:
 * an idle slot leaves nothing behind.
 */
export const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
local start = math.max(now, nextAt)
redis.call('SET', KEYS[1], start + interval, 'PX', math.ceil(start + interval - now) + 1000)
return start - now
`;

type ReserveCommand = { seineRateReserve(key: string, intervalMs: number): Promise<number> };

/**
 * DOWNLOAD_SLOTS `rate` over every worker of a shared crawl: one key per
 * slot, `<prefix>rate:<slot>`, under the crawl's prefix (so `seine frontier
 * <spider> clear` removes them). Its own connection, opened only when some
 * slot has a rate: a RESERVE never waits behind a batch of pushes.
 */
export class RedisRateBuckets implements SharedRate {
  readonly #redis: Redis;

  constructor(
    url: string,
    readonly keyPrefix: string,
  ) {
    const { Redis: RedisClient } = loadIoredis();
    this.#redis = new RedisClient(url, {
      // As the frontier's client: calls wait while Redis is away and go when it is back.
      maxRetriesPerRequest: null,
      retryStrategy: (times) => Math.min(50 * times, 1000),
    });
    // The frontier's client reports lost connections; this one only keeps ioredis from printing them.
    this.#redis.on('error', () => undefined);
    this.#redis.defineCommand('seineRateReserve', { numberOfKeys: 1, lua: RESERVE });
  }

  async reserve(slot: string, intervalMs: number): Promise<number> {
    const wait = await (this.#redis as unknown as ReserveCommand).seineRateReserve(`${this.keyPrefix}rate:${slot}`, Math.ceil(intervalMs));
    return Number(wait);
  }

  /** Closes the connection (what is sent is answered first, for up to `timeoutMs`). */
  async close(timeoutMs = 2000): Promise<void> {
    if (this.#redis.status === 'end') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.#redis.quit().then(() => undefined, () => undefined), late]);
    clearTimeout(timer);
    this.#redis.disconnect();
  }
}
