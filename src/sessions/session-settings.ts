import { cssToXPath } from '../css/index.js';
import type { Settings } from '../settings/settings.js';
import { SettingsError } from '../settings/settings-error.js';

/** The SESSIONS_* settings, read and checked once when the crawl starts. */
export interface SessionSettings {
  poolSize: number;
  maxUsage: number;
  maxRetries: number;
  browserHeaders: boolean;
}

function positiveInteger(settings: Settings, name: 'SESSIONS_POOL_SIZE' | 'SESSIONS_MAX_USAGE' | 'SESSIONS_MAX_RETRIES', minimum: number): number {
  const raw: unknown = settings.get(name);
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new SettingsError(`Setting ${name} must be an integer of at least ${minimum}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * Reads SESSIONS_POOL_SIZE, SESSIONS_MAX_USAGE, SESSIONS_MAX_RETRIES and
 * SESSIONS_BROWSER_HEADERS, and parses SESSIONS_BLOCKED_SELECTOR now: a
 * selector that does not parse is one SettingsError when the crawl starts,
 * not a silent "never blocked" on every page.
 */
export function readSessionSettings(settings: Settings): SessionSettings {
  const selector = settings.get('SESSIONS_BLOCKED_SELECTOR');
  if (typeof selector === 'string' && selector !== '') {
    try {
      cssToXPath(selector);
    } catch (error) {
      throw new SettingsError(`Setting SESSIONS_BLOCKED_SELECTOR is not a CSS selector seine can read: ${JSON.stringify(selector)} (${(error as Error).message})`);
    }
  }
  return {
    poolSize: positiveInteger(settings, 'SESSIONS_POOL_SIZE', 1),
    maxUsage: positiveInteger(settings, 'SESSIONS_MAX_USAGE', 1),
    maxRetries: positiveInteger(settings, 'SESSIONS_MAX_RETRIES', 0),
    browserHeaders: settings.getBool('SESSIONS_BROWSER_HEADERS'),
  };
}
