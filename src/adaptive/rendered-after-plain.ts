import type { Request } from '../http/request.js';
import { AFTER_PLAIN } from './rendering-predictor.js';

/** What a request rendered after its plain download carries in `meta._playwright_auto_plain` (JSON, so JOBDIR keeps it). */
export interface AfterPlainMarker {
  /** URLs of the requests the plain page already yielded: the rendered page's same requests are not yielded again. */
  urls: string[];
  /** True: the rendered page's outputs decide what the kind needs (the default rule); false: the spider's needsBrowser() decided already. */
  compare: boolean;
  /** The kind had been learned plain: a rendered page that adds something corrects that misprediction. */
  learnedPlain: boolean;
}

/** Meta the plain download wrote that must not carry over to the rendering (a retry's count and backoff, the latency, the cache's notes). */
const WRITTEN_BY_THE_DOWNLOAD = ['retry_times', 'retry_delay_ms', 'download_latency', 'cached_response', '_dont_cache'];

/**
 * The request that renders the page `request` fetched plain (the response's own request): the same URL,
 * callback, errback, headers and meta, not filtered as a duplicate, marked
 * so the predictor sends it to the browser and the middleware knows what
 * the plain page gave, and scheduled a little ahead of its peers. It is kept out of the HTTP cache: the cache knows a
 * page by its URL, and would answer the rendering with the plain copy.
 */
export function renderedAfterPlain(request: Request, marker: AfterPlainMarker): Request {
  const meta: Record<string, unknown> = { ...request.meta };
  for (const key of WRITTEN_BY_THE_DOWNLOAD) delete meta[key];
  meta['dont_cache'] = true;
  meta[AFTER_PLAIN] = marker;
  // One above the page's own priority: the verdict it brings should arrive before more pages of the kind are fetched.
  return request.replace({ dontFilter: true, meta, priority: request.priority + 1 });
}

export function afterPlainMarker(value: unknown): AfterPlainMarker | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const marker = value as Partial<AfterPlainMarker>;
  return Array.isArray(marker.urls) ? { urls: marker.urls, compare: marker.compare === true, learnedPlain: marker.learnedPlain === true } : undefined;
}
