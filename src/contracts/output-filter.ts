/**
 * A spider middleware whose processSpiderOutput only keeps, drops or
 * replaces each output on its own (depth, URL length, offsite, referer)
 * can say so by implementing `outputFilter` and using `filterOutputs` as
 * its processSpiderOutput. The engine then runs a row of such middlewares
 * as one stage (src/engine/spider-chain.ts) instead of one async generator
 * each: per candidate link that saves three or four promises and iterator
 * results per middleware, ~1,100 objects per page of the crawl benchmark
 * (docs/performance.md, "CPU per page"). What each middleware sees, and
 * in which order, is the same as through the generators.
 *
 * A subclass that overrides processSpiderOutput gets its own method called
 * as usual; one that overrides outputFilter is still run as a filter.
 */
import type { Response } from '../http/response.js';
import type { SpiderMiddleware, SpiderOutput } from './components.js';
import type { Spider } from './spider.js';

/** An output kept (the same or a replacement), or null to drop it. */
export type OutputFilterFn = (output: SpiderOutput) => SpiderOutput | null;

export interface FilteringMiddleware extends SpiderMiddleware {
  /** Called once per response, before its first output (when processSpiderOutput would start). */
  outputFilter(response: Response, spider: Spider): OutputFilterFn;
}

const FILTERS = Symbol('seine.filterOutputs');

/** processSpiderOutput for a FilteringMiddleware: its filter over each output. */
export function filterOutputs(middleware: FilteringMiddleware, response: Response, result: AsyncIterable<SpiderOutput>, spider: Spider): AsyncIterable<SpiderOutput> {
  return filtered(middleware.outputFilter(response, spider), result);
}

async function* filtered(filter: OutputFilterFn, result: AsyncIterable<SpiderOutput>): AsyncIterable<SpiderOutput> {
  for await (const output of result) {
    const kept = filter(output);
    if (kept !== null) yield kept;
  }
}

/** Marks a class's processSpiderOutput as the one that only calls filterOutputs. */
export function markFilterOnly(method: SpiderMiddleware['processSpiderOutput']): void {
  if (method !== undefined) Object.defineProperty(method, FILTERS, { value: true });
}

/** True when the middleware's processSpiderOutput (as the instance has it) is a marked filter-only one. */
export function isFilterOnly(middleware: SpiderMiddleware): middleware is FilteringMiddleware {
  const method = middleware.processSpiderOutput as unknown as Record<symbol, unknown> | undefined;
  return method?.[FILTERS] === true && typeof (middleware as Partial<FilteringMiddleware>).outputFilter === 'function';
}

/**
 * A spider middleware whose processSpiderOutput hands most responses'
 * outputs back untouched (AdaptiveRenderingMiddleware: all but `'auto'`
 * pages) says which with `passesOutputsOf`; for those responses the
 * engine leaves it out of the output chain, so the filter-only middlewares
 * can still run inline (src/engine/spider-chain.ts, scrapeInto).
 */
export interface PassingMiddleware extends SpiderMiddleware {
  /** True when processSpiderOutput would return the outputs of this response unchanged. */
  passesOutputsOf(response: Response): boolean;
}

/** True when the middleware says it passes this response's outputs through untouched. */
export function passesOutputsOf(middleware: SpiderMiddleware, response: Response): boolean {
  return typeof (middleware as Partial<PassingMiddleware>).passesOutputsOf === 'function' && (middleware as PassingMiddleware).passesOutputsOf(response);
}
