import { readFileSync } from 'node:fs';

/** Scrapy 2.8's AutoThrottle fed one slot's responses in turn (recorded by scripts/record-autothrottle-fixtures.py). */
export interface AutoThrottleScenario {
  name: string;
  /** AUTOTHROTTLE_* and DOWNLOAD_DELAY given to Scrapy (AUTOTHROTTLE_ENABLED and _DEBUG were on). */
  settings: Record<string, number>;
  /** The seconds Scrapy derived from them. */
  minDelay: number;
  maxDelay: number;
  startDelay: number;
  /** Per response: its latency (s), status, body size, the slot's transferring count; the slot's delay after it and the debug line. */
  steps: Array<{ latency: number; status: number; size: number; transferring: number; delay: number; log: string }>;
}

export const SCENARIOS = JSON.parse(readFileSync(new URL('../fixtures/throttle/autothrottle.json', import.meta.url), 'utf8')) as AutoThrottleScenario[];
