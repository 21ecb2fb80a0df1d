import { isObservable, type Observable } from 'rxjs';
import type { CallbackResult } from '../http/request.js';
import type { SpiderOutput } from './components.js';

/**
 * Turns whatever a callback returned into one async iterable of outputs.
 * docs/spiders.md allows a generator or async generator, an array or other
 * iterable, a Promise (of any of these), an Observable, a single item or
 * Request, or nothing.
 */
export async function* callbackOutputs(result: CallbackResult): AsyncIterable<SpiderOutput> {
  let value: unknown = result;
  if (isPromiseLike(value)) value = await value;
  if (value === undefined || value === null) return;
  if (isObservable(value)) {
    yield* observableToAsync(value as Observable<SpiderOutput>);
    return;
  }
  if (typeof value === 'object' && value !== null && Symbol.asyncIterator in value) {
    for await (const out of value as AsyncIterable<SpiderOutput | null | undefined>) if (out != null) yield out;
    return;
  }
  if (typeof value === 'object' && value !== null && Symbol.iterator in value && !(typeof value === 'string')) {
    for (const out of value as Iterable<SpiderOutput | null | undefined>) {
      const resolved = isPromiseLike(out) ? await out : out;
      if (resolved != null) yield resolved as SpiderOutput;
    }
    return;
  }
  // A single item or Request; anything else (a number, a string) too, for the engine to report as Scrapy does.
  yield value as SpiderOutput;
}

/**
 * What a callback produced that is neither a Request nor an item, named for
 * the error line (`'number'`, `'string'`, `'array'`, `'Response'`…), or null
 * when it is one. Items are objects: plain ones and class instances (Scrapy's
 * dicts, Items and dataclasses); an array is a list of outputs only when the
 * callback returns it, not as one output.
 */
export function notAnOutput(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  if (Array.isArray(output)) return 'array';
  if (typeof output !== 'object') return typeof output;
  const name = (output as { constructor?: { name?: unknown } }).constructor?.name;
  if (name === 'Response' || name === 'TextResponse' || name === 'HtmlResponse' || name === 'XmlResponse' || name === 'Selector' || name === 'SelectorList' || name === 'Promise') return name;
  return null;
}

/** A Promise or any thenable: what a callback, a middleware or a pipeline may answer with instead of a value. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

async function* observableToAsync<T>(source: Observable<T>): AsyncIterable<T> {
  const buffer: T[] = [];
  let done = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const subscription = source.subscribe({
    next: (v) => {
      buffer.push(v);
      wake?.();
    },
    error: (e: unknown) => {
      failure = e ?? new Error('Observable failed');
      wake?.();
    },
    complete: () => {
      done = true;
      wake?.();
    },
  });
  try {
    for (;;) {
      if (buffer.length > 0) {
        yield buffer.shift()!;
        continue;
      }
      if (failure !== null) throw failure;
      if (done) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    subscription.unsubscribe();
  }
}
