import type { Settings } from '../settings/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { parsePoolProxy } from './proxy-entry.js';

export type ProxyRotation = 'round-robin' | 'per-domain' | 'per-session';
const ROTATIONS: readonly ProxyRotation[] = ['round-robin', 'per-domain', 'per-session'];

export interface ProxyPoolSettings {
  list?: string[];
  tiers?: string[][];
  rotation: ProxyRotation;
  backoffBase: number;
  backoffCap: number;
}

/**
 * The pool's settings, checked (every URL parsed, so that a typo stops the
 * crawl before its first request); null when neither PROXY_LIST nor
 * PROXY_TIERS is set, so that the pool and its middleware cost nothing.
 */
export function proxyPoolSettings(settings: Settings): ProxyPoolSettings | null {
  // get() reads the setting by its kind: an array, a JSON array or a comma-separated string (-s PROXY_LIST='["http://…"]').
  const list = settings.get('PROXY_LIST').map((value) => String(value).trim()).filter((value) => value !== '');
  const tiers = readTiers(settings.getRaw('PROXY_TIERS'));
  // Read first, so that a wrong value is reported even in a crawl that sets no proxies yet.
  const rotation = settings.get('PROXY_ROTATION');
  if (!ROTATIONS.includes(rotation as ProxyRotation)) {
    throw new SettingsError(`Setting PROXY_ROTATION must be 'round-robin', 'per-domain' or 'per-session', got ${JSON.stringify(rotation)}`);
  }
  const backoffBase = settings.getFloat('PROXY_BACKOFF_BASE', 30);
  const backoffCap = settings.getFloat('PROXY_BACKOFF_CAP', 600);
  if (!(backoffBase > 0) || !(backoffCap >= backoffBase)) {
    throw new SettingsError(`Settings PROXY_BACKOFF_BASE (${backoffBase}) and PROXY_BACKOFF_CAP (${backoffCap}) must be seconds above 0, the cap at least the base`);
  }
  if (list.length === 0 && tiers.length === 0) return null;
  if (list.length > 0 && tiers.length > 0) {
    throw new SettingsError('Settings PROXY_LIST and PROXY_TIERS are both set: use PROXY_LIST for one set of proxies in turn, or PROXY_TIERS for tiers per domain, not both');
  }
  for (const url of list) parsePoolProxy(url, 'PROXY_LIST');
  for (const tier of tiers) for (const url of tier) parsePoolProxy(url, 'PROXY_TIERS');
  const common = { rotation: rotation as ProxyRotation, backoffBase, backoffCap };
  return list.length > 0 ? { ...common, list } : { ...common, tiers };
}

/** PROXY_TIERS as given in code (a list of lists) or on the command line (the same as JSON). */
function readTiers(raw: unknown): string[][] {
  let value = raw;
  if (typeof value === 'string') {
    if (value.trim() === '') return [];
    try {
      value = JSON.parse(value);
    } catch {
      value = undefined;
    }
  }
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((tier) => Array.isArray(tier) && tier.every((url) => typeof url === 'string'))) {
    throw new SettingsError(`Setting PROXY_TIERS must be a list of lists of proxy URLs, such as [[], ["http://dc1:8080"], ["http://user:pass@residential:8000"]]`);
  }
  return value as string[][];
}
