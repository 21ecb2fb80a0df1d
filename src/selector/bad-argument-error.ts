import { SeineError } from '../errors/seine-error.js';
import { blameCaller } from '../errors/caller-stack.js';
import { isPlainObject, isRegExp } from '../value-kinds.js';

/**
 * A selector method was called with an argument of the wrong type:
 * `css(42)`, `xpath(null)`, `re({})`, `new Selector({ text: 42 })`. The
 * message names the method, the argument, what it got and what to pass:
 *
 *   Selector.css() needs the query as a string, got a number (42)
 *
 * Without this check such calls failed deep inside (a TypeError from the
 * CSS error's own constructor for `css(42)`) or, worse, quietly: `css(null)`
 * searched for elements named "null".
 */
export class BadArgumentError extends SeineError {
  static readonly code = 'SEINE_BAD_ARGUMENT';
  /** The method, as `Selector.css()`. */
  readonly method: string;
  /** The argument, as `the query`. */
  readonly argument: string;

  /** `gotText` replaces the description of `got` (`neither`). */
  constructor(method: string, argument: string, expected: string, got: unknown, gotText?: string) {
    super(BadArgumentError.code, `${method} needs ${argument} as ${expected}, got ${gotText ?? describeValue(got)}`);
    this.method = method;
    this.argument = argument;
    // The stack names the call with the wrong argument (in the spider), not seine's frames under it.
    blameCaller(this, new.target);
  }
}

/** `a number (42)`, `null`, `an array`, `an object ({"a":1})`: what a message says a wrong argument was. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)})`;
    case 'number':
    case 'bigint':
    case 'boolean':
      return `a ${typeof value} (${String(value)})`;
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default: {
      const name = (value as object).constructor?.name;
      return name !== undefined && name !== 'Object' ? `a ${name}` : 'an object';
    }
  }
}

export function checkString(method: string, argument: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new BadArgumentError(method, argument, 'a string', value);
}

export function checkRegex(method: string, value: unknown): asserts value is RegExp | string {
  // isRegExp, not instanceof: a RegExp typed in the shell's console comes from another realm.
  if (typeof value !== 'string' && !isRegExp(value)) {
    throw new BadArgumentError(method, 'the regular expression', "a RegExp or a string (/\\d+/ or '\\\\d+')", value);
  }
}

/** A default for get()/reFirst(): a string, or null/undefined for none. */
export function checkDefault(method: string, value: unknown): void {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw new BadArgumentError(method, 'the default', 'a string (or null)', value);
  }
}

export function checkOptionalBoolean(method: string, argument: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') throw new BadArgumentError(method, argument, 'a boolean', value);
}

/** An optional object of string values, such as namespaces: `{ atom: 'http://www.w3.org/2005/Atom' }`. */
export function checkNamespaces(method: string, value: unknown): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    throw new BadArgumentError(method, 'namespaces', "an object of prefix → URI strings ({ atom: 'http://www.w3.org/2005/Atom' })", value);
  }
  for (const [prefix, uri] of Object.entries(value)) {
    if (typeof uri !== 'string') throw new BadArgumentError(method, `the URI of namespace prefix '${prefix}'`, 'a string', uri);
  }
}

/** XPath variables: `{ name: 'value' }`, each a string, number or boolean; null and undefined mean none. */
export function checkVariables(method: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (!isPlainObject(value)) throw new BadArgumentError(method, 'the variables', "an object ({ tag: 'life' } for $tag)", value);
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      throw new BadArgumentError(method, `variable '$${name}'`, 'a string, number or boolean', v);
    }
  }
}

export function checkXPathOptions(method: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (!isPlainObject(value)) throw new BadArgumentError(method, 'the options', "an object ({ namespaces: { a: 'urn:a' } })", value);
  checkNamespaces(method, value['namespaces']);
}

/** The arguments of xpath(), on a Selector or a SelectorList. */
export function checkXPathArguments(method: string, query: unknown, variables: unknown, options: unknown): void {
  checkString(method, 'the query', query);
  if (variables !== undefined) checkVariables(method, variables);
  if (options !== undefined) checkXPathOptions(method, options);
}
