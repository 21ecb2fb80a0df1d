import type { Settings } from '../settings/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { settingAtLeast } from '../settings/setting-at-least.js';
import { bloomSize, type BloomSize } from './bloom.js';

/** The REDIS_* settings of a shared crawl, read and checked once. */
export interface FrontierSettings {
  readonly url: string;
  /** The URL with its password replaced by `***`, for log lines. */
  readonly safeUrl: string;
  readonly leaseMs: number;
  /** Every key of the crawl starts with it: `<REDIS_KEY_PREFIX>:{<spider>}:`. */
  readonly keyPrefix: string;
  /** null: the duplicate filter is a set of fingerprints. */
  readonly bloom: BloomSize | null;
  /** REDIS_ITEMS: items also go to the crawl's items list in Redis, exactly once per request. */
  readonly shareItems: boolean;
  readonly connectTimeoutMs: number;
}

function origin(settings: Settings, name: string): string {
  const source = settings.getSource(name);
  return source === undefined ? '' : ` (from ${source})`;
}

/** `redis://user:secret@host/0` → `redis://user:***@host/0`; what is not a URL is shown as it is. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** The key prefix of one crawl: its spider name in braces, a Redis Cluster hash tag (the crawl's keys live on one node). */
export function crawlKeyPrefix(prefix: string, spiderName: string): string {
  return `${prefix}:{${spiderName}}:`;
}

/** True when SCHEDULER selects the shared frontier. */
export function usesRedisScheduler(settings: Settings): boolean {
  const value = String(settings.get('SCHEDULER') ?? '').trim();
  const known = value.toLowerCase();
  if (known === 'redis' || known === 'redisscheduler') return true;
  if (known === '' || known === 'scheduler' || known === 'scrapy.core.scheduler.scheduler' || known === 'default') return false;
  throw new SettingsError(
    `Setting SCHEDULER is ${JSON.stringify(value)}${origin(settings, 'SCHEDULER')}, which seine does not know: ` +
      "use 'redis' to share the crawl with other workers through REDIS_URL, or leave it unset for the scheduler of one process",
  );
}

export function frontierSettings(settings: Settings, spiderName: string): FrontierSettings {
  const url = String(settings.get('REDIS_URL') ?? '');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SettingsError(`Setting REDIS_URL is ${JSON.stringify(url)}${origin(settings, 'REDIS_URL')}, which is not a URL: write it as redis://host:6379/0 (rediss:// for TLS)`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new SettingsError(`Setting REDIS_URL is ${JSON.stringify(redactRedisUrl(url))}${origin(settings, 'REDIS_URL')}: its scheme must be redis:// or rediss://`);
  }
  const leaseSecs = settingAtLeast(settings, 'REDIS_LEASE_SECS', settings.getFloat('REDIS_LEASE_SECS'), 1, 'a lease shorter than a second would expire while its request downloads');
  const connectSecs = settingAtLeast(settings, 'REDIS_CONNECT_TIMEOUT', settings.getFloat('REDIS_CONNECT_TIMEOUT'), 0, 'how long a worker tries to reach Redis before it gives up');
  const prefix = String(settings.get('REDIS_KEY_PREFIX') ?? '');
  if (prefix === '' || /[{}\s]/.test(prefix)) {
    throw new SettingsError(`Setting REDIS_KEY_PREFIX is ${JSON.stringify(prefix)}${origin(settings, 'REDIS_KEY_PREFIX')}: use a non-empty name without braces or spaces, such as 'seine'`);
  }
  if (/[{}]/.test(spiderName)) throw new SettingsError(`The spider name ${JSON.stringify(spiderName)} has braces, which Redis would read as a hash tag: rename the spider to share its crawl`);
  const filter = String(settings.get('REDIS_DUPEFILTER') ?? '').toLowerCase();
  if (filter !== 'set' && filter !== 'bloom') {
    throw new SettingsError(`Setting REDIS_DUPEFILTER is ${JSON.stringify(settings.get('REDIS_DUPEFILTER'))}${origin(settings, 'REDIS_DUPEFILTER')}: use 'set' (exact, the default) or 'bloom' (a fixed-size filter for hundreds of millions of URLs)`);
  }
  return {
    url,
    safeUrl: redactRedisUrl(url),
    leaseMs: Math.round(leaseSecs * 1000),
    keyPrefix: crawlKeyPrefix(prefix, spiderName),
    bloom: filter === 'bloom' ? bloomSize(settings) : null,
    shareItems: settings.getBool('REDIS_ITEMS'),
    connectTimeoutMs: Math.round(connectSecs * 1000),
  };
}
