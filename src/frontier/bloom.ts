import type { Settings } from '../settings/index.js';
import { SettingsError } from '../settings/settings-error.js';

/** A Bloom filter's shape: `bits` in the Redis string, `hashes` bits set per fingerprint. */
export interface BloomSize {
  readonly bits: number;
  readonly hashes: number;
  readonly capacity: number;
  readonly errorRate: number;
}

/** A Redis string holds at most 512 MiB: 2^32 bits. */
const MAX_BITS = 2 ** 32;

/**
 * The standard sizing: m = -n·ln p / (ln 2)², k = (m / n)·ln 2, for
 * REDIS_BLOOM_CAPACITY fingerprints at REDIS_BLOOM_ERROR_RATE false
 * positives (a new URL taken for a seen one, and not crawled).
 */
export function bloomSize(settings: Settings): BloomSize {
  const capacity = settings.getInt('REDIS_BLOOM_CAPACITY');
  const errorRate = settings.getFloat('REDIS_BLOOM_ERROR_RATE');
  if (!(capacity >= 1)) throw new SettingsError(`Setting REDIS_BLOOM_CAPACITY must be at least 1, got ${capacity}: it is how many URLs the crawl may see`);
  if (!(errorRate > 0 && errorRate < 1)) {
    throw new SettingsError(`Setting REDIS_BLOOM_ERROR_RATE must be between 0 and 1, got ${errorRate}: it is the share of new URLs taken for seen ones, such as 0.001`);
  }
  const bits = Math.ceil((-capacity * Math.log(errorRate)) / Math.LN2 ** 2);
  if (bits > MAX_BITS) {
    throw new SettingsError(
      `REDIS_BLOOM_CAPACITY ${capacity} at REDIS_BLOOM_ERROR_RATE ${errorRate} needs ${bits} bits, more than the 2^32 a Redis string holds: lower the capacity or raise the error rate`,
    );
  }
  return { bits, hashes: Math.max(1, Math.round((bits / capacity) * Math.LN2)), capacity, errorRate };
}

/**
 * The bits of one fingerprint (a hex SHA-1), by double hashing: bit i is
 * (h1 + i·h2) mod m with h1, h2 two 32-bit parts of the fingerprint —
 * independent enough, since SHA-1's bits are. Comma-separated, as the PUSH
 * script reads them.
 */
export function bloomOffsets(fingerprint: string, size: BloomSize): string {
  const h1 = Number.parseInt(fingerprint.slice(0, 8), 16) || 0;
  const h2 = (Number.parseInt(fingerprint.slice(8, 16), 16) || 0) | 1;
  const offsets: number[] = [];
  for (let i = 0; i < size.hashes; i++) offsets.push((h1 + i * h2) % size.bits); // < 2^32 + 64·2^32: exact in a double
  return offsets.join(',');
}
