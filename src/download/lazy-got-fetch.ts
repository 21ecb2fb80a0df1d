import type { FetchFn } from './fetch-contract.js';
import type { GotFetchOptions } from './got-options.js';

/**
 * createGotFetch() loaded with the first download instead of with the
 * crawler's modules: got and its dependencies take ~110 ms and ~10 MB to
 * load, which a command that downloads nothing (`seine runspider` of a
 * spider that yields no request, `seine check -l`) never pays, and which a
 * crawl pays while its first request is on its way anyway.
 */
export function lazyGotFetch(options: GotFetchOptions): FetchFn {
  let loaded: FetchFn | undefined;
  let loading: Promise<FetchFn> | undefined;
  return (request, fetchOptions) => {
    if (loaded !== undefined) return loaded(request, fetchOptions);
    loading ??= import('./fetch-got.js').then((module) => (loaded = module.createGotFetch(options)));
    return loading.then((fetch) => fetch(request, fetchOptions));
  };
}
