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
 * Python. That needs a Proxy; it costs one trap per indexed read, which is
 * why seine's own code iterates with for…of over the target array instead.
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
    for (const sel of this) for (const found of sel.xpath(query, variables, options)) out.push(found);
    return out;
  }

  css(query: string): SelectorList {
    checkString('SelectorList.css()', 'the query', query);
    const out = new SelectorList();
    for (const sel of this) for (const found of sel.css(query)) out.push(found);
    return out;
  }

  /** The first result as a string, or `def` (null when not given) when the list is empty. */
  get(): string | null;
  get(def: string): string;
  get(def: string | null = null): string | null {
    checkDefault('SelectorList.get()', def);
    for (const sel of this) return sel.get();
    return def;
  }

  getall(): string[] {
    const out: string[] = [];
    for (const sel of this) out.push(sel.get());
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

const INDEX_GUARD: ProxyHandler<SelectorList> = {
  get(target, key, receiver) {
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
