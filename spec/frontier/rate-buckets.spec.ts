import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisRateBuckets } from '../../src/frontier/rate-buckets.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(() => redis.stop());

describe('RedisRateBuckets', () => {
  it('hands two clients one schedule: each reservation one interval after the one before, whoever asks', async () => {
    const [a, b] = [new RedisRateBuckets(redis.url, 'seine:{t}:'), new RedisRateBuckets(redis.url, 'seine:{t}:')];
    const client = new Redis(redis.url);
    try {
      // Connected before the clock starts: only the schedule is measured, not a connection's set-up.
      await Promise.all([a.reserve('warm-up', 1), b.reserve('warm-up', 1), client.ping()]);
      const askedAt = performance.now();
      const waits: number[] = [];
      const answeredAt: number[] = [];
      for (const buckets of [a, b, a, b]) {
        waits.push(await buckets.reserve('shop', 100));
        answeredAt.push(performance.now());
      }
      // Each start is one interval after the one before, so the i-th wait is i × 100 ms less the time
      // that passed since the first was asked (however slow a loaded machine makes the round trips).
      waits.forEach((wait, i) => {
        expect(wait).toBeLessThanOrEqual(i * 100);
        expect(wait).toBeGreaterThanOrEqual(i * 100 - Math.ceil(answeredAt[i]! - askedAt) - 1);
      });
      expect(waits[0]).toBe(0);
      // Another slot has its own schedule.
      expect(await a.reserve('other', 100)).toBe(0);
      const ttl = await client.pttl('seine:{t}:rate:shop');
      const ttlAnsweredAt = performance.now();
      // Kept while it matters, gone a second after the last reserved start (that start is waits[3] + 100 ms
      // after the last reservation was answered).
      const lastStartEnds = waits[3]! + 100;
      expect(ttl).toBeLessThanOrEqual(lastStartEnds + 1000);
      expect(ttl).toBeGreaterThanOrEqual(lastStartEnds + 1000 - Math.ceil(ttlAnsweredAt - answeredAt[3]!) - 1);
    } finally {
      client.disconnect();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
