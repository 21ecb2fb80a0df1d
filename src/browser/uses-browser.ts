import type { Request } from '../http/request.js';

/**
 * True when `request` is downloaded with the browser: `meta.playwright: true`, or PLAYWRIGHT_BY_DEFAULT unless meta
 * says `playwright: false`. `'auto'` is not decided here: the crawl's wiring asks src/adaptive/ first (false here).
 */
export function usesBrowser(request: Request, byDefault: boolean): boolean {
  const flag = request.meta['playwright'];
  return flag === undefined || flag === null ? byDefault : flag === true;
}
