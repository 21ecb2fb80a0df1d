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
    try {
      const waits = [await a.reserve('shop', 100), await b.reserve('shop', 100), await a.reserve('shop', 100), await b.reserve('shop', 100)];
      // Asked within a few ms of each other: 0, ~100, ~200, ~300 ms from the moment each was asked.
      waits.forEach((wait, i) => {
        expect(wait).toBeGreaterThan(i * 100 - 30);
        expect(wait).toBeLessThanOrEqual(i * 100);
      });
      // Another slot has its own schedule.
      expect(await a.reserve('other', 100)).toBe(0);
      const client = new Redis(redis.url);
      const ttl = await client.pttl('seine:{t}:rate:shop');
      client.disconnect();
      // Kept while it matters, gone a second after the last reserved start.
      expect(ttl).toBeGreaterThan(1000);
      expect(ttl).toBeLessThanOrEqual(1400);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
