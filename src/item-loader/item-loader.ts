/**
 * Scrapy's ItemLoader (itemloaders 1.x): fields collect values from CSS or
 * XPath queries and from code, each through the field's input processor;
 * `loadItem()` passes each field's values through its output processor.
 *
 *     class ProductLoader extends ItemLoader<Product> {
 *       static override defaultOutputProcessor = new TakeFirst();
 *       static override fieldProcessors = { tags: { output: new Identity() } };
 *     }
 *
 * Typed: `new ItemLoader<Product>(…)`'s methods take only Product's field
 * names, and `loadItem()` returns a Product.
 */
import type { Response } from '../http/response.js';
import type { Selector } from '../selector/selector.js';
import type { SelectorList } from '../selector/selector-list.js';
import { Identity, argToList, runProcessor, processorName, type LoaderContext, type Processor, type ProcessorLike } from './processors.js';

export interface FieldProcessors {
  readonly input?: ProcessorLike;
  readonly output?: ProcessorLike;
}

export interface ItemLoaderOptions<T> {
  /** An item to fill; its values are the fields' first values. Default: a new object. */
  readonly item?: Partial<T>;
  /** Where addCss/addXpath query (default: the response's selector). */
  readonly selector?: Selector | SelectorList;
  readonly response?: Response;
  /** The loader context, given to Processor classes' process(values, context). */
  readonly context?: LoaderContext;
}

type FieldName<T> = Extract<keyof T, string>;

interface LoaderClass {
  defaultInputProcessor: ProcessorLike;
  defaultOutputProcessor: ProcessorLike;
  fieldProcessors: Readonly<Record<string, FieldProcessors>>;
}

export class ItemLoader<T extends object = Record<string, unknown>> {
  /** Applied to each value added to a field without its own input processor. */
  static defaultInputProcessor: ProcessorLike = new Identity();
  /** Applied at loadItem() to each field without its own output processor. */
  static defaultOutputProcessor: ProcessorLike = new Identity();
  /** Per field: `{ price: { input: new MapCompose(parseFloat), output: new TakeFirst() } }` (itemloaders' `price_in`, `price_out`). */
  static fieldProcessors: Readonly<Record<string, FieldProcessors>> = {};

  readonly item: Partial<T>;
  readonly selector: Selector | SelectorList | null;
  readonly context: LoaderContext;
  readonly #values: Map<string, unknown[]>;
  readonly #parent: ItemLoader<T> | null;

  constructor(options: ItemLoaderOptions<T> = {}, parent: ItemLoader<T> | null = null) {
    this.#parent = parent;
    this.item = parent?.item ?? options.item ?? ({} as Partial<T>);
    this.selector = options.selector ?? options.response?.selector ?? null;
    this.context = { ...parent?.context, ...options.context, ...(options.response === undefined ? {} : { response: options.response }) };
    this.#values = parent === null ? new Map() : parent.#values;
    if (parent === null) for (const [name, value] of Object.entries(this.item)) this.#values.set(name, argToList(value));
  }

  #class(): LoaderClass {
    return this.constructor as unknown as LoaderClass;
  }

  inputProcessor(field: string): ProcessorLike {
    return this.#class().fieldProcessors[field]?.input ?? this.#class().defaultInputProcessor;
  }

  outputProcessor(field: string): ProcessorLike {
    return this.#class().fieldProcessors[field]?.output ?? this.#class().defaultOutputProcessor;
  }

  /** The value through the call's own processors, one after another (itemloaders' get_value). */
  getValue(value: unknown, ...processors: ProcessorLike[]): unknown {
    let current = value;
    for (const processor of processors) {
      if (current === null || current === undefined) break;
      try {
        current = runProcessor(processor, current, this.context);
      } catch (error) {
        throw new Error(`Error with processor ${processorName(processor)} value=${JSON.stringify(current)} error='${error instanceof Error ? error.message : String(error)}'`, { cause: error });
      }
    }
    return current;
  }

  #add(field: string, value: unknown, replace: boolean): void {
    const input = this.inputProcessor(field);
    let processed: unknown;
    try {
      processed = runProcessor(input, argToList(value), this.context);
    } catch (error) {
      throw new Error(`Error with input processor ${processorName(input)}: field=${JSON.stringify(field)} value=${JSON.stringify(value)} error='${error instanceof Error ? error.message : String(error)}'`, { cause: error });
    }
    if (replace) this.#values.delete(field);
    const list = argToList(processed);
    // itemloaders keeps a field only when its processed value is truthy (an empty list adds nothing).
    if (processed === null || processed === undefined || processed === '' || processed === 0 || processed === false || list.length === 0) return;
    this.#values.set(field, [...(this.#values.get(field) ?? []), ...list]);
  }

  addValue(field: FieldName<T>, value: unknown, ...processors: ProcessorLike[]): this {
    const processed = this.getValue(value, ...processors);
    if (processed !== null && processed !== undefined) this.#add(field, processed, false);
    return this;
  }

  replaceValue(field: FieldName<T>, value: unknown, ...processors: ProcessorLike[]): this {
    const processed = this.getValue(value, ...processors);
    if (processed !== null && processed !== undefined) this.#add(field, processed, true);
    return this;
  }

  #selector(method: string): Selector | SelectorList {
    if (this.selector === null) throw new TypeError(`ItemLoader.${method}() needs a selector: create the loader with { response } or { selector }`);
    return this.selector;
  }

  addCss(field: FieldName<T>, query: string | readonly string[], ...processors: ProcessorLike[]): this {
    return this.addValue(field, this.#queryValues('addCss', 'css', query), ...processors);
  }

  addXpath(field: FieldName<T>, query: string | readonly string[], ...processors: ProcessorLike[]): this {
    return this.addValue(field, this.#queryValues('addXpath', 'xpath', query), ...processors);
  }

  replaceCss(field: FieldName<T>, query: string | readonly string[], ...processors: ProcessorLike[]): this {
    return this.replaceValue(field, this.#queryValues('replaceCss', 'css', query), ...processors);
  }

  replaceXpath(field: FieldName<T>, query: string | readonly string[], ...processors: ProcessorLike[]): this {
    return this.replaceValue(field, this.#queryValues('replaceXpath', 'xpath', query), ...processors);
  }

  #queryValues(method: string, kind: 'css' | 'xpath', query: string | readonly string[]): string[] {
    const selector = this.#selector(method);
    return (typeof query === 'string' ? [query] : [...query]).flatMap((one) => selector[kind](one).getall());
  }

  /** The values collected so far for `field` (itemloaders' get_collected_values). */
  getCollectedValues(field: FieldName<T>): unknown[] {
    return [...(this.#values.get(field) ?? [])];
  }

  /** The field's collected values through its output processor. */
  getOutputValue(field: FieldName<T>): unknown {
    const output = this.outputProcessor(field);
    try {
      return runProcessor(output, [...(this.#values.get(field) ?? [])], this.context);
    } catch (error) {
      throw new Error(`Error with output processor ${processorName(output)}: field=${JSON.stringify(field)} error='${error instanceof Error ? error.message : String(error)}'`, { cause: error });
    }
  }

  /** A loader for the part of the page the CSS query selects, filling the same item. */
  nestedCss(query: string): this {
    return this.#nested(this.#selector('nestedCss').css(query));
  }

  nestedXpath(query: string): this {
    return this.#nested(this.#selector('nestedXpath').xpath(query));
  }

  /** A query that selects nothing gives a loader whose queries find nothing, as in itemloaders. */
  #nested(selector: SelectorList): this {
    const Loader = this.constructor as new (options: ItemLoaderOptions<T>, parent: ItemLoader<T>) => this;
    return new Loader({ selector }, this.#parent ?? this);
  }

  /** The item: each field's values through its output processor (a field whose output is null/undefined is left out). */
  loadItem(): T {
    const item = this.item as Record<string, unknown>;
    for (const field of this.#values.keys()) {
      const value = this.getOutputValue(field as FieldName<T>);
      if (value !== null && value !== undefined) item[field] = value;
    }
    return item as T;
  }
}

export type { Processor, ProcessorLike, LoaderContext };
