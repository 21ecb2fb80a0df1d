import { importDependency } from '../errors/dependency-missing-error.js';
import type { FetchFn } from './fetch-contract.js';
import type { GotFetchOptions } from './got-options.js';

/**
 * createGotFetch() loaded with the first download instead of with the
 * crawler's modules: got and its dependencies take ~110 ms and ~10 MB to
 * load, which a command that downloads nothing (`seine runspider` of a
 * spider that yields no request, `seine check -l`) never pays, and which a
 * crawl pays while its first request is on its way anyway. When got cannot
 * be loaded (a cut-short install), every call rejects with one
 * DependencyMissingError, which stops the crawl (src/engine/engine-state.ts).
 */
export function lazyGotFetch(options: GotFetchOptions): FetchFn & { warmUp(): Promise<void> } {
  let loaded: FetchFn | undefined;
  let loading: Promise<FetchFn> | undefined;
  const load = (): Promise<FetchFn> => (loading ??= importDependency('got', 'downloading pages', () => import('./fetch-got.js')).then((module) => (loaded = module.createGotFetch(options))));
  const fetch: FetchFn = (request, fetchOptions) => (loaded !== undefined ? loaded(request, fetchOptions) : load().then((ready) => ready(request, fetchOptions)));
  // The engine waits for this before the first request leaves (src/engine/throttle.ts), so that loading got is not
  // counted in the first download's time, nor taken off the DOWNLOAD_DELAY between the first two requests.
  return Object.assign(fetch, { warmUp: async (): Promise<void> => void (await load()) });
}
