import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Spider } from '../contracts/spider.js';
import type { SpiderMiddleware, SpiderOutput } from '../contracts/components.js';
import { callbackOutputs } from '../contracts/callback-output.js';
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
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const mw = middlewares[i]!;
    if (mw.processSpiderOutput !== undefined) outputs = mw.processSpiderOutput(response, outputs, spider);
  }
  yield* outputs;
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
