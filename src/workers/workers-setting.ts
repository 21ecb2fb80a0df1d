import type { Settings } from '../settings/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { usesRedisScheduler } from '../frontier/frontier-settings.js';

/**
 * WORKERS (`--workers N`): how many worker processes crawl for this one.
 * 1, the default, is the crawl of one process, with nothing else loaded.
 * A value that is not a whole number ≥ 1, or more than one worker with
 * SCHEDULER = 'redis' (whose workers are started by hand, each its own
 * process already), is one line saying what to write instead.
 */
export function workersSetting(settings: Settings): number {
  const raw = settings.getRaw('WORKERS');
  const origin = settings.getSource('WORKERS');
  const from = origin === undefined ? '' : ` (${origin})`;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1) {
    throw new SettingsError(`WORKERS must be a whole number of worker processes, 1 or more, got ${JSON.stringify(raw)}${from}: write e.g. --workers 2 (1 crawls in one process)`);
  }
  if (value > 1 && usesRedisScheduler(settings)) {
    throw new SettingsError(`WORKERS is ${value}${from} with SCHEDULER = 'redis': a Redis crawl's workers are the processes you start yourself (docs/distributed.md); drop --workers, or drop SCHEDULER = 'redis' to share one process's frontier`);
  }
  return value;
}

/** WORKERS > 1 in a crawl started from code: the workers are started with the command line of `seine crawl`/`runspider`, which such a crawl has not. */
export function workersNeedTheCli(workers: number): SettingsError {
  return new SettingsError(`WORKERS is ${workers}, and worker processes are started only by 'seine crawl' and 'seine runspider' (--workers N): in code, set WORKERS to 1, or run the crawl with the command`);
}
