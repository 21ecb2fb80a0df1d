import { inspect } from 'node:util';
import type { Selector } from './selector.js';
import type { XPathVariables } from '../xpath/index.js';
import type { XPathOptions } from './selector.js';
import { IndexError } from './index-error.js';
import { checkDefault, checkRegex, checkString, checkXPathArguments } from './bad-argument-error.js';

/**
 * The result of a query: an array of Selectors that can be queried again as a
 * whole (`list.css('a::attr(href)').getall()`), as parsel's SelectorList.
 *
 * Indexing past the end throws `IndexError: list index out of range` instead
 * of returning undefined, and negative indexes count from the end, as in
 * Python. That needs a Proxy; it costs one trap per indexed read, and a
 * push or an iteration through the Proxy is a trap per element, so seine's
 * own code fills and reads the array behind it (`itemsOf`): results were
 * pushed through the Proxy, which took a fifth of the listing benchmark
 * (docs/performance.md, issue 26).
 */
export class SelectorList extends Array<Selector> {
  constructor(...items: Selector[] | [number]) {
    if (items.length === 1 && typeof items[0] === 'number') {
      super(items[0]); // Array species construction (map, filter, slice …)
    } else {
      super();
      for (const item of items as Selector[]) this.push(item);
    }
    return new Proxy(this, INDEX_GUARD);
  }

  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  // Built with a loop, not `new SelectorList(...items)`: spreading 300,000 results as
  // arguments overflowed the stack (RangeError) on a big page.
  override slice(start?: number, end?: number): SelectorList {
    return listOf(Array.prototype.slice.call(this, start, end) as Selector[]);
  }

  override filter(predicate: (value: Selector, index: number, array: Selector[]) => unknown): SelectorList {
    return listOf(Array.prototype.filter.call(this, predicate) as Selector[]);
  }


  xpath(query: string, variables?: XPathVariables, options?: XPathOptions): SelectorList {
    checkXPathArguments('SelectorList.xpath()', query, variables, options);
    const out = new SelectorList();
    const into = itemsOf(out);
    for (const sel of itemsOf(this)) for (const found of itemsOf(sel.xpath(query, variables, options))) into.push(found);
    return out;
  }

  css(query: string): SelectorList {
    checkString('SelectorList.css()', 'the query', query);
    const out = new SelectorList();
    const into = itemsOf(out);
    for (const sel of itemsOf(this)) for (const found of itemsOf(sel.css(query))) into.push(found);
    return out;
  }

  /** The first result as a string, or `def` (null when not given) when the list is empty. */
  get(): string | null;
  get(def: string): string;
  get(def: string | null = null): string | null {
    if (def !== null) checkDefault('SelectorList.get()', def);
    const items = itemsOf(this);
    return items.length > 0 ? items[0]!.get() : def;
  }

  getall(): string[] {
    const items = itemsOf(this);
    const out: string[] = new Array(items.length);
    for (let i = 0; i < items.length; i++) out[i] = items[i]!.get();
    return out;
  }

  /** parsel's `extract()` / `extract_first()`. */
  extract(): string[] {
    return this.getall();
  }
  extractFirst(def: string | null = null): string | null {
    return this.get(def as string);
  }

  re(regex: RegExp | string, replaceEntities = true): string[] {
    checkRegex('SelectorList.re()', regex);
    const out: string[] = [];
    for (const sel of this) for (const s of sel.re(regex, replaceEntities)) out.push(s);
    return out;
  }

  reFirst(regex: RegExp | string): string | null;
  reFirst(regex: RegExp | string, def: string, replaceEntities?: boolean): string;
  reFirst(regex: RegExp | string, def: string | null = null, replaceEntities = true): string | null {
    checkRegex('SelectorList.reFirst()', regex);
    checkDefault('SelectorList.reFirst()', def);
    for (const sel of this) {
      const found = sel.re(regex, replaceEntities)[0];
      if (found !== undefined) return found;
    }
    return def;
  }

  /** The first element's attributes, or an empty object. */
  get attrib(): Record<string, string> {
    for (const sel of this) return sel.attrib;
    return {};
  }

  /** Removes every selected node from its document. */
  drop(): void {
    for (const sel of this) sel.drop();
  }

  override toString(): string {
    return '[' + Array.prototype.map.call(this, (s: Selector) => s.toString()).join(', ') + ']';
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** A SelectorList of `items`, however many. */
function listOf(items: readonly Selector[]): SelectorList {
  const list = new SelectorList();
  for (let i = 0; i < items.length; i++) list.push(items[i]!);
  return list;
}

/** Asked of the Proxy, answers the array behind it. Module-private: users only ever hold the Proxy. */
const TARGET = Symbol('SelectorList target');

/**
 * The plain array behind a SelectorList, to push into and read without a
 * Proxy trap per element. Only for seine's selector code; what is pushed
 * here shows in the list.
 */
export function itemsOf(list: SelectorList): Selector[] {
  return ((list as unknown as Record<symbol, Selector[] | undefined>)[TARGET] ?? list) as Selector[];
}

const INDEX_GUARD: ProxyHandler<SelectorList> = {
  get(target, key, receiver) {
    if (key === TARGET) return target;
    if (typeof key === 'string') {
      const first = key.charCodeAt(0);
      if ((first >= 48 && first <= 57) || first === 45) {
        const index = Number(key);
        if (Number.isInteger(index) && String(index) === key) {
          const length = target.length;
          if (index >= length || index < -length) throw new IndexError();
          return target[index < 0 ? length + index : index];
        }
      }
    }
    return Reflect.get(target, key, receiver);
  },
};
