import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider } from '../contracts/spider.js';
import type { SpiderMiddleware, SpiderOutput } from '../contracts/components.js';
import { callbackOutputs, isPromiseLike } from '../contracts/callback-output.js';
import { isFilterOnly, passesOutputsOf, type FilteringMiddleware, type OutputFilterFn } from '../contracts/output-filter.js';
import { isObservable } from 'rxjs';
import type { CallbackResult } from '../http/request.js';
import { asError } from './downloader-chain.js';

/**
 * Scrapy's spider middleware contract around one callback call:
 * processSpiderInput in order (a throw sends the response to the request's
 * errback), the callback with `this` = the spider, processSpiderOutput in
 * reverse order over what it yields, processSpiderException in reverse order
 * when the callback throws (a middleware may return outputs to recover).
 */
export async function* scrapeThrough(
  middlewares: readonly SpiderMiddleware[],
  response: Response,
  request: Request,
  spider: Spider,
  onUnhandledError: (error: Error) => void,
): AsyncIterable<SpiderOutput> {
  let outputs: AsyncIterable<SpiderOutput>;
  try {
    for (const mw of middlewares) if (mw.processSpiderInput !== undefined) await mw.processSpiderInput(response, spider);
    outputs = guarded(callbackOutputs(callCallback(request, response, spider)), middlewares, response, spider, onUnhandledError);
  } catch (thrown) {
    outputs = afterFailedInput(middlewares, response, request, spider, onUnhandledError, asError(thrown));
  }
  yield* throughOutputMiddlewares(middlewares, response, spider, outputs);
}

/**
 * The same contract as scrapeThrough, each output handed to `emit` (false:
 * stop, the crawl no longer wants them). When every processSpiderOutput is
 * filter-only (the defaults: offsite, referer, URL length, depth) and the
 * callback returns a plain iterable (a generator, an array), its outputs go
 * through the filters and out in one synchronous loop: with ~85 outputs per
 * page, the four async generators of the general path cost ~340 promises
 * and iterator results per page (docs/performance.md, "CPU per page").
 * A middleware that passes this response's outputs through untouched
 * (`passesOutputsOf`) does not count. Anything else (an async callback, an
 * Observable, a middleware of its own over the outputs) takes the general path.
 */
export async function scrapeInto(
  middlewares: readonly SpiderMiddleware[],
  response: Response,
  request: Request,
  spider: Spider,
  onUnhandledError: (error: Error) => void,
  emit: (output: SpiderOutput) => boolean,
): Promise<void> {
  if (!middlewares.every((mw) => mw.processSpiderOutput === undefined || isFilterOnly(mw) || passesOutputsOf(mw, response))) {
    for await (const output of scrapeThrough(middlewares, response, request, spider, onUnhandledError)) if (!emit(output)) return;
    return;
  }
  let result: unknown;
  try {
    for (const mw of middlewares) {
      if (mw.processSpiderInput === undefined) continue;
      const checked = mw.processSpiderInput(response, spider) as unknown;
      if (isPromiseLike(checked)) await checked;
    }
    result = callCallback(request, response, spider);
  } catch (thrown) {
    await emitAll(throughOutputMiddlewares(middlewares, response, spider, afterFailedInput(middlewares, response, request, spider, onUnhandledError, asError(thrown))), emit);
    return;
  }
  if (!isPlainIterable(result)) {
    await emitAll(throughOutputMiddlewares(middlewares, response, spider, guarded(callbackOutputs(result as CallbackResult), middlewares, response, spider, onUnhandledError)), emit);
    return;
  }
  const filters = middlewares.filter(isFilterOnly).map((mw) => mw.outputFilter(response, spider));
  const iterator = result[Symbol.iterator]();
  for (;;) {
    let output: unknown;
    try {
      const step = iterator.next();
      if (step.done === true) return;
      output = step.value;
      if (isPromiseLike(output)) output = await output;
    } catch (thrown) {
      // As `guarded`: outputs already emitted stay, processSpiderException may recover, and what it gives is filtered too.
      for await (const recovered of recoveredOutputs(middlewares, response, asError(thrown), spider, onUnhandledError)) {
        const kept = throughFilters(filters, recovered);
        if (kept !== null && !emit(kept)) return;
      }
      return;
    }
    if (output === null || output === undefined) continue;
    const kept = throughFilters(filters, output as SpiderOutput);
    if (kept !== null && !emit(kept)) {
      iterator.return?.();
      return;
    }
  }
}

function callCallback(request: Request, response: Response, spider: Spider): CallbackResult {
  const callback = request.callback ?? (spider as unknown as { parse: Spider['parse'] }).parse;
  return callback.call(spider, response, request.cbKwargs);
}

/** processSpiderInput or the callback threw: the request's errback, or processSpiderException. */
function afterFailedInput(
  middlewares: readonly SpiderMiddleware[],
  response: Response,
  request: Request,
  spider: Spider,
  onUnhandledError: (error: Error) => void,
  error: Error,
): AsyncIterable<SpiderOutput> {
  if (request.errback === null) return recoveredOutputs(middlewares, response, error, spider, onUnhandledError);
  return guarded(callbackOutputs(request.errback.call(spider, errorWithResponse(error, response), request)), middlewares, response, spider, onUnhandledError);
}

/** Outputs pass the middlewares from the last to the first; a row of filter-only ones is one stage. */
function throughOutputMiddlewares(middlewares: readonly SpiderMiddleware[], response: Response, spider: Spider, source: AsyncIterable<SpiderOutput>): AsyncIterable<SpiderOutput> {
  let outputs = source;
  let i = middlewares.length - 1;
  while (i >= 0) {
    const mw = middlewares[i]!;
    if (isFilterOnly(mw)) {
      let first = i;
      while (first > 0 && (isFilterOnly(middlewares[first - 1]!) || middlewares[first - 1]!.processSpiderOutput === undefined)) first--;
      outputs = filterRow(middlewares.slice(first, i + 1).filter(isFilterOnly), response, spider, outputs);
      i = first - 1;
    } else {
      if (mw.processSpiderOutput !== undefined) outputs = mw.processSpiderOutput(response, outputs, spider);
      i--;
    }
  }
  return outputs;
}

async function emitAll(outputs: AsyncIterable<SpiderOutput>, emit: (output: SpiderOutput) => boolean): Promise<void> {
  for await (const output of outputs) if (!emit(output)) return;
}

/** One output through a row's filters, from the last middleware to the first; null when one drops it. */
function throughFilters(filters: readonly OutputFilterFn[], output: SpiderOutput): SpiderOutput | null {
  let current = output;
  for (let k = filters.length - 1; k >= 0; k--) {
    const kept = filters[k]!(current);
    if (kept === null) return null;
    current = kept;
  }
  return current;
}

/** A generator or array a callback returned (not a string, not async, not an Observable): iterated without awaiting. */
function isPlainIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.iterator in value && !(Symbol.asyncIterator in value) && !isObservable(value);
}

/**
 * Filter-only middlewares (src/contracts/output-filter.ts), given in chain
 * order, as one stage: what their generators would do, in the same order —
 * each one's per-response start when the first output is wanted, the first
 * middleware's first; then each output through the last one to the first.
 */
async function* filterRow(row: readonly FilteringMiddleware[], response: Response, spider: Spider, source: AsyncIterable<SpiderOutput>): AsyncIterable<SpiderOutput> {
  const filters = row.map((mw) => mw.outputFilter(response, spider));
  for await (const output of source) {
    const kept = throughFilters(filters, output);
    if (kept !== null) yield kept;
  }
}

/** Errors while iterating a callback's outputs go to processSpiderException; outputs already yielded stay. */
async function* guarded(
  source: AsyncIterable<SpiderOutput>,
  middlewares: readonly SpiderMiddleware[],
  response: Response,
  spider: Spider,
  onUnhandledError: (error: Error) => void,
): AsyncIterable<SpiderOutput> {
  try {
    yield* source;
  } catch (thrown) {
    yield* recoveredOutputs(middlewares, response, asError(thrown), spider, onUnhandledError);
  }
}

async function* recoveredOutputs(
  middlewares: readonly SpiderMiddleware[],
  response: Response,
  error: Error,
  spider: Spider,
  onUnhandledError: (error: Error) => void,
): AsyncIterable<SpiderOutput> {
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const mw = middlewares[i]!;
    if (mw.processSpiderException === undefined) continue;
    const result = await mw.processSpiderException(response, error, spider);
    if (result !== null && result !== undefined) {
      yield* callbackOutputs(result as Iterable<SpiderOutput>);
      return;
    }
  }
  onUnhandledError(error);
}

function errorWithResponse(error: Error, response: Response): Error {
  if (!('response' in error)) Object.defineProperty(error, 'response', { value: response, enumerable: false });
  return error;
}
