import { SettingsError } from '../settings/settings-error.js';
import { isPlainObject } from '../value-kinds.js';

/** One DOWNLOAD_SLOTS entry, read and checked: what a slot gets instead of the crawl-wide values. */
export interface SlotOverrides {
  /** Requests of the slot in flight at most (wins over CONCURRENT_REQUESTS_PER_DOMAIN / _PER_IP). */
  readonly concurrency?: number;
  /** Milliseconds between two starts (wins over DOWNLOAD_DELAY and AutoThrottle's start delay; AutoThrottle never goes below it). */
  readonly delayMs?: number;
  readonly randomizeDelay?: boolean;
  /** From `rate`: at least this many milliseconds between two starts, never randomized, never changed by AutoThrottle. */
  readonly rateIntervalMs?: number;
  /** The `rate` as written, for messages. */
  readonly rate?: string;
}

const KNOWN_KEYS = ['concurrency', 'delay', 'randomize_delay', 'rate'] as const;
const PERIOD_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000 };
const RATE = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([smh])\s*$/;
const RATE_HINT = "write 'N/s', 'N/m' or 'N/h' with N > 0 (e.g. '30/m': at most 30 requests a minute, one every 2 s)";

/**
 * `'N/s'`, `'N/m'` or `'N/h'` → the milliseconds between two starts
 * (period / N), or null when the text is not a rate of N > 0.
 *
 * A rate is a token bucket of capacity 1: '30/m' means one start every 2 s,
 * never 30 at once and then a pause — what a site that allows "30 a minute"
 * expects, and what a user of Scrapy or Crawlee who asked for it meant.
 */
export function rateIntervalMs(rate: string): number | null {
  const match = RATE.exec(rate);
  if (match === null) return null;
  const count = Number(match[1]);
  if (!(count > 0)) return null;
  return PERIOD_MS[match[2]!]! / count;
}

/**
 * Reads DOWNLOAD_SLOTS (Scrapy's setting, plus `rate`): slot key →
 * `{ concurrency, delay, randomize_delay, rate }`. Anything a user could
 * not have meant — an unknown key, a rate seine cannot read, a negative
 * delay — is one SettingsError naming the slot and what to write, when the
 * crawl starts rather than at the first request of that slot.
 */
export function readSlotSettings(value: Readonly<Record<string, unknown>>, source?: string): Map<string, SlotOverrides> {
  const from = source === undefined ? '' : ` (from ${source})`;
  const fail = (slot: string, problem: string): never => {
    throw new SettingsError(`Setting DOWNLOAD_SLOTS${from}: slot ${JSON.stringify(slot)} ${problem}`);
  };
  const slots = new Map<string, SlotOverrides>();
  for (const [slot, entry] of Object.entries(value)) {
    if (!isPlainObject(entry)) {
      fail(slot, `is ${JSON.stringify(entry) ?? String(entry)}: give it an object such as { "concurrency": 1, "delay": 2, "rate": "30/m" }`);
    }
    const options = entry as Record<string, unknown>;
    const unknown = Object.keys(options).filter((key) => !(KNOWN_KEYS as readonly string[]).includes(key));
    if (unknown.length > 0) {
      fail(slot, `has ${unknown.map((key) => `"${key}"`).join(', ')}, which seine does not know: use ${KNOWN_KEYS.map((key) => `"${key}"`).join(', ')}`);
    }
    const overrides: { -readonly [K in keyof SlotOverrides]: SlotOverrides[K] } = {};
    const { concurrency, delay, randomize_delay: randomize, rate } = options;
    if (concurrency !== undefined) {
      if (typeof concurrency !== 'number' || !Number.isInteger(concurrency) || concurrency < 1) {
        fail(slot, `has concurrency ${JSON.stringify(concurrency)}: write a whole number of 1 or more (requests of the slot in flight at once)`);
      }
      overrides.concurrency = concurrency as number;
    }
    if (delay !== undefined) {
      if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0) {
        fail(slot, `has delay ${JSON.stringify(delay)}: write a number of seconds of 0 or more between two requests of the slot (e.g. 1.5)`);
      }
      overrides.delayMs = (delay as number) * 1000;
    }
    if (randomize !== undefined) {
      if (typeof randomize !== 'boolean') fail(slot, `has randomize_delay ${JSON.stringify(randomize)}: write true or false`);
      overrides.randomizeDelay = randomize as boolean;
    }
    if (rate !== undefined) {
      const interval = typeof rate === 'string' ? rateIntervalMs(rate) : null;
      if (interval === null) fail(slot, `has rate ${JSON.stringify(rate)}: ${RATE_HINT}`);
      overrides.rateIntervalMs = interval!;
      overrides.rate = (rate as string).trim();
    }
    slots.set(slot, overrides);
  }
  return slots;
}
