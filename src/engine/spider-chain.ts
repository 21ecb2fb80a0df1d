import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider } from '../contracts/spider.js';
import type { SpiderMiddleware, SpiderOutput } from '../contracts/components.js';
import { callbackOutputs } from '../contracts/callback-output.js';
import { isFilterOnly, type FilteringMiddleware } from '../contracts/output-filter.js';
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
    const callback = request.callback ?? (spider as unknown as { parse: Spider['parse'] }).parse;
    outputs = guarded(callbackOutputs(callback.call(spider, response, request.cbKwargs)), middlewares, response, spider, onUnhandledError);
  } catch (thrown) {
    const error = asError(thrown);
    if (request.errback !== null) {
      outputs = guarded(callbackOutputs(request.errback.call(spider, errorWithResponse(error, response), request)), middlewares, response, spider, onUnhandledError);
    } else {
      outputs = recovered(middlewares, response, error, spider, onUnhandledError);
    }
  }
  // Outputs pass the middlewares from the last to the first; a row of filter-only ones is one stage.
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
  yield* outputs;
}

/**
 * Filter-only middlewares (src/contracts/output-filter.ts), given in chain
 * order, as one stage: what their generators would do, in the same order —
 * each one's per-response start when the first output is wanted, the first
 * middleware's first; then each output through the last one to the first.
 */
async function* filterRow(row: readonly FilteringMiddleware[], response: Response, spider: Spider, source: AsyncIterable<SpiderOutput>): AsyncIterable<SpiderOutput> {
  const filters = row.map((mw) => mw.outputFilter(response, spider));
  outputs: for await (const output of source) {
    let current = output;
    for (let k = filters.length - 1; k >= 0; k--) {
      const kept = filters[k]!(current);
      if (kept === null) continue outputs;
      current = kept;
    }
    yield current;
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
    yield* recovered(middlewares, response, asError(thrown), spider, onUnhandledError);
  }
}

async function* recovered(
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
