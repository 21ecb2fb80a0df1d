import { lazyModule } from '../errors/lazy-package.js';
import type { HttpFetch, HttpFetchCallOptions, HttpFetchOptions } from './fetch-options.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';

const gotFetchModule = lazyModule('got', 'createGotFetch (HTTP/2)', () => import('./fetch-got.js'));

/**
 * `createGotFetch` as `seine/operators` exports it: the same client
 * (fetch-got.ts), but got is imported with the first call to the factory
 * rather than with `seine/operators`, so that code using createNodeFetch
 * does not load got (~10 MB and ~0.1 s) for nothing. The first download
 * waits for the import; a missing got rejects every download with a
 * DependencyMissingError.
 */
export function createGotFetch(options: HttpFetchOptions = {}): HttpFetch {
  let ready: HttpFetch | null = null;
  let closed = false;
  const loading = gotFetchModule().then((module) => {
    ready = module.createGotFetch(options);
    if (closed) ready.close();
    return ready;
  });
  // Reported by each download instead, not as an unhandled rejection.
  loading.catch(() => undefined);
  const fetch = (request: Request, fetchOptions: HttpFetchCallOptions): Promise<Response> =>
    ready !== null ? ready(request, fetchOptions) : loading.then((loaded) => loaded(request, fetchOptions));
  return Object.assign(fetch, {
    close: () => {
      closed = true;
      ready?.close();
    },
  });
}
