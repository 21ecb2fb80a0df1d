import { setMaxListeners } from 'node:events';

const widened = new WeakSet<AbortSignal>();

/**
 * One crawl-wide signal is shared by every download in flight, each adding
 * (and later removing) one listener; Node warns past 10 listeners as a
 * leak guard, which would fire at CONCURRENT_REQUESTS = 16.
 */
export function allowManyListeners(signal: AbortSignal): void {
  if (widened.has(signal)) return;
  widened.add(signal);
  setMaxListeners(0, signal);
}
