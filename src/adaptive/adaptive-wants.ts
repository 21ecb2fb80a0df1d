import type { Request } from '../http/request.js';
import type { Crawler } from '../contracts/crawler.js';
import { RenderingPredictor } from './rendering-predictor.js';

/**
 * The download handlers' "does the browser want this request?" with
 * `meta.playwright: 'auto'` added: an 'auto' request asks the crawl's
 * RenderingPredictor (a kind learned to need the browser goes straight to
 * it, without a wasted plain download); any other request is answered by
 * `rendersAlways` (meta.playwright true, PLAYWRIGHT_BY_DEFAULT). The
 * predictor is built by the first 'auto' request: a crawl without one
 * pays a meta lookup per request.
 */
export function adaptiveWants(crawler: Pick<Crawler, 'settings' | 'stats' | 'logBus'>, rendersAlways: (request: Request) => boolean): (request: Request) => boolean {
  let predictor: RenderingPredictor | undefined;
  return (request) => (request.meta.playwright === 'auto' ? (predictor ??= RenderingPredictor.of(crawler)).wantsBrowser(request) : rendersAlways(request));
}
