/**
 * The processors of itemloaders (Scrapy's ItemLoader), as classes: each one
 * takes the list of values a field collected and returns what goes on.
 * `process(values, context)` receives the loader's context; plain functions
 * given as processors are called with the values alone.
 */
import { search } from '@jmespath-community/jmespath';

export type LoaderContext = Record<string, unknown>;

export interface Processor {
  process(values: unknown, context: LoaderContext): unknown;
}

/** A processor: a Processor, or a function of the value. */
export type ProcessorLike = Processor | ((value: any) => unknown); // eslint-disable-line @typescript-eslint/no-explicit-any

/** itemloaders' arg_to_iter: nothing → [], a list as it is, anything else → [it]. */
export function argToList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function runProcessor(processor: ProcessorLike, value: unknown, context: LoaderContext): unknown {
  return typeof processor === 'function' ? processor(value) : processor.process(value, context);
}

function processorName(processor: ProcessorLike): string {
  return typeof processor === 'function' ? processor.name || 'anonymous function' : processor.constructor.name;
}

function failed(processor: string, fn: string, value: unknown, error: unknown): Error {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new Error(`Error in ${processor} with ${fn} value=${JSON.stringify(value) ?? String(value)} error='${reason}'`, { cause: error });
}

/** The values as they are (the default input and output processor). */
export class Identity implements Processor {
  process(values: unknown): unknown {
    return values;
  }
}

/** The first value that is neither null/undefined nor '' (null when there is none). */
export class TakeFirst implements Processor {
  process(values: unknown): unknown {
    for (const value of argToList(values)) if (value !== null && value !== undefined && value !== '') return value;
    return null;
  }
}

/** The values joined with `separator` (a space by default). */
export class Join implements Processor {
  constructor(readonly separator = ' ') {}

  process(values: unknown): string {
    return argToList(values).map(String).join(this.separator);
  }
}

/**
 * Each function (or processor: `new MapCompose(JSON.parse, new SelectJmes('a.b'))`) applied to each value in turn; a function's array result is
 * flattened into the values, a null/undefined result drops the value.
 */
export class MapCompose implements Processor {
  readonly functions: readonly ProcessorLike[];

  constructor(...functions: ProcessorLike[]) {
    this.functions = functions;
  }

  process(values: unknown, context: LoaderContext = {}): unknown[] {
    let current = argToList(values);
    for (const fn of this.functions) {
      const next: unknown[] = [];
      for (const value of current) {
        try {
          // A loop, not push(...list): a processor may return a list of 200,000 values, more than a call's arguments can hold.
          for (const out of argToList(runProcessor(fn, value, context))) next.push(out);
        } catch (error) {
          throw failed('MapCompose', processorName(fn), value, error);
        }
      }
      current = next;
    }
    return current;
  }
}

/** The functions applied one after another to the whole value; stops at a null/undefined result unless `stopOnNone` is false. */
export class Compose implements Processor {
  readonly functions: readonly ProcessorLike[];
  stopOnNone = true;

  constructor(...functions: ProcessorLike[]) {
    this.functions = functions;
  }

  process(values: unknown, context: LoaderContext = {}): unknown {
    let value = values;
    for (const fn of this.functions) {
      if ((value === null || value === undefined) && this.stopOnNone) break;
      try {
        value = runProcessor(fn, value, context);
      } catch (error) {
        throw failed('Compose', processorName(fn), value, error);
      }
    }
    return value;
  }
}

/** A JMESPath query on the value (an object parsed from JSON, say), with a maintained JMESPath library. */
export class SelectJmes implements Processor {
  constructor(readonly expression: string) {}

  process(value: unknown): unknown {
    return search(value as never, this.expression) ?? null;
  }
}

export { processorName };
