/**
 * The compiled form of an expression: closures, one per way a caller may
 * want the value. A caller that needs a string calls `str`, which for a
 * path is "first node's string-value" without building the node-set, for a
 * number formats it, and so on; the conversions are chosen once, at compile
 * time, so evaluation does no type dispatch when types are known statically
 * (everything but variables).
 *
 * Every closure takes (context node, context position, context size,
 * runtime) as plain arguments: no context object is allocated per node.
 */
import { stringValue, type DomNode } from '../dom/node.js';
import { numberToString } from './number-format.js';
import { stringToNumber, toBooleanValue, toNumberValue, toStringValue, type XPathValue } from './values.js';

export type XPathVariables = Record<string, string | number | boolean>;

/** Per-evaluation state. */
export interface Runtime {
  readonly vars: XPathVariables;
}

export type Fn<T> = (node: DomNode, pos: number, size: number, rt: Runtime) => T;

export type ValueType = 'nodeset' | 'string' | 'number' | 'boolean' | 'any';

/** `deps` bits: the expression reads the context position / size (position(), last()) of its own context. */
export const USES_POSITION = 1;
export const USES_SIZE = 2;

export interface NodeSetCode {
  /** The node-set in document order without duplicates; a fresh array the caller may keep. */
  readonly all: Fn<DomNode[]>;
  /** First node in document order, or null. */
  readonly first: Fn<DomNode | null>;
  readonly exists: Fn<boolean>;
  readonly count: Fn<number>;
  /** Statically known to hold at most one node (`.`, `..`, `@name`). */
  readonly atMostOne: boolean;
}

export interface Code {
  readonly type: ValueType;
  readonly value: Fn<XPathValue>;
  readonly str: Fn<string>;
  readonly num: Fn<number>;
  readonly bool: Fn<boolean>;
  /** Present exactly when type is 'nodeset'. */
  readonly set: NodeSetCode | null;
  readonly deps: number;
  /** The value, when it does not depend on the context (literals, numbers, and expressions of them). */
  readonly constant: string | number | boolean | undefined;
}

export function stringCode(str: Fn<string>, deps: number): Code {
  return {
    type: 'string',
    value: str,
    str,
    num: (n, p, s, rt) => stringToNumber(str(n, p, s, rt)),
    bool: (n, p, s, rt) => str(n, p, s, rt).length > 0,
    set: null,
    deps,
    constant: undefined,
  };
}

export function numberCode(num: Fn<number>, deps: number): Code {
  return {
    type: 'number',
    value: num,
    str: (n, p, s, rt) => numberToString(num(n, p, s, rt)),
    num,
    bool: (n, p, s, rt) => {
      const x = num(n, p, s, rt);
      return x !== 0 && x === x;
    },
    set: null,
    deps,
    constant: undefined,
  };
}

export function booleanCode(bool: Fn<boolean>, deps: number): Code {
  return {
    type: 'boolean',
    value: bool,
    str: (n, p, s, rt) => (bool(n, p, s, rt) ? 'true' : 'false'),
    num: (n, p, s, rt) => (bool(n, p, s, rt) ? 1 : 0),
    bool,
    set: null,
    deps,
    constant: undefined,
  };
}

/** A value whose type is known only at evaluation time (variables). */
export function anyCode(value: Fn<XPathValue>, deps: number): Code {
  return {
    type: 'any',
    value,
    str: (n, p, s, rt) => toStringValue(value(n, p, s, rt)),
    num: (n, p, s, rt) => toNumberValue(value(n, p, s, rt)),
    bool: (n, p, s, rt) => toBooleanValue(value(n, p, s, rt)),
    set: null,
    deps,
    constant: undefined,
  };
}

export function constantCode(v: string | number | boolean): Code {
  const str = toStringValue(v);
  const num = toNumberValue(v);
  const bool = toBooleanValue(v);
  return {
    type: typeof v as 'string' | 'number' | 'boolean',
    value: () => v,
    str: () => str,
    num: () => num,
    bool: () => bool,
    set: null,
    deps: 0,
    constant: v,
  };
}

export interface NodeSetParts {
  readonly all: Fn<DomNode[]>;
  readonly first?: Fn<DomNode | null> | undefined;
  readonly exists?: Fn<boolean> | undefined;
  readonly count?: Fn<number> | undefined;
  readonly atMostOne?: boolean | undefined;
}

export function nodeSetCode(parts: NodeSetParts, deps: number): Code {
  const all = parts.all;
  const first: Fn<DomNode | null> = parts.first ?? ((n, p, s, rt) => all(n, p, s, rt)[0] ?? null);
  const set: NodeSetCode = {
    all,
    first,
    exists: parts.exists ?? ((n, p, s, rt) => all(n, p, s, rt).length > 0),
    count: parts.count ?? ((n, p, s, rt) => all(n, p, s, rt).length),
    atMostOne: parts.atMostOne ?? false,
  };
  const str: Fn<string> = (n, p, s, rt) => {
    const f = first(n, p, s, rt);
    return f === null ? '' : stringValue(f);
  };
  return {
    type: 'nodeset',
    value: all,
    str,
    num: (n, p, s, rt) => {
      const f = first(n, p, s, rt);
      return f === null ? NaN : stringToNumber(stringValue(f));
    },
    bool: set.exists,
    set,
    deps,
    constant: undefined,
  };
}
