/**
 * XPath values and the conversions and comparisons between them
 * (https://www.w3.org/TR/xpath-10/#section-Basics, §3.4, §4.2–4.4).
 */
import { stringValue, type DomNode } from '../dom/node.js';
import { scanNumber } from './lexer.js';
import { numberToString } from './number-format.js';

export type XPathValue = DomNode[] | string | number | boolean;

export function isNodeSet(v: XPathValue): v is DomNode[] {
  return typeof v === 'object';
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * `number(string)` with lxml's exact rules: optional blanks, an optional
 * minus, digits with an optional fraction and exponent, blanks; anything
 * else is NaN. (A lone "-" is -0 in lxml; "+1" and "Infinity" are NaN.)
 */
export function stringToNumber(s: string): number {
  let i = 0;
  const n = s.length;
  while (i < n && isBlank(s.charCodeAt(i))) i++;
  const c = s.charCodeAt(i);
  if (c !== 0x2e && c !== 0x2d && !(c >= 0x30 && c <= 0x39)) return NaN;
  const scanned = scanNumber(s, i, true);
  if (scanned === null) return NaN;
  i = scanned.end;
  while (i < n && isBlank(s.charCodeAt(i))) i++;
  return i === n ? scanned.value : NaN;
}

export function toStringValue(v: XPathValue): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return numberToString(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return v.length === 0 ? '' : stringValue(v[0]!);
  }
}

export function toNumberValue(v: XPathValue): number {
  switch (typeof v) {
    case 'number':
      return v;
    case 'string':
      return stringToNumber(v);
    case 'boolean':
      return v ? 1 : 0;
    default:
      return v.length === 0 ? NaN : stringToNumber(stringValue(v[0]!));
  }
}

export function toBooleanValue(v: XPathValue): boolean {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      return v !== 0 && v === v;
    case 'string':
      return v.length > 0;
    default:
      return v.length > 0;
  }
}

export type EqualityOp = '=' | '!=';
export type RelationalOp = '<' | '<=' | '>' | '>=';
export type ComparisonOp = EqualityOp | RelationalOp;

export function compareNumbers(op: ComparisonOp, a: number, b: number): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

/** `a op b` with the operands swapped: `3 < A` is `A > 3`. */
export function flipOp(op: ComparisonOp): ComparisonOp {
  switch (op) {
    case '<':
      return '>';
    case '<=':
      return '>=';
    case '>':
      return '<';
    case '>=':
      return '<=';
    default:
      return op;
  }
}

/** A node-set compared with a string, number or boolean; the node-set is on the left. */
export function compareNodesWith(op: ComparisonOp, nodes: readonly DomNode[], other: string | number | boolean): boolean {
  if (typeof other === 'boolean') {
    // Booleans compare as booleans (= !=) or as 0/1 (< <= > >=); on 0/1 both agree.
    return compareNumbers(op, nodes.length > 0 ? 1 : 0, other ? 1 : 0);
  }
  if (typeof other === 'string' && (op === '=' || op === '!=')) {
    const want = op === '=';
    for (let i = 0; i < nodes.length; i++) if ((stringValue(nodes[i]!) === other) === want) return true;
    return false;
  }
  const num = typeof other === 'number' ? other : stringToNumber(other);
  for (let i = 0; i < nodes.length; i++) {
    if (compareNumbers(op, stringToNumber(stringValue(nodes[i]!)), num)) return true;
  }
  return false;
}

/** Two node-sets: true when some pair of their nodes' string-values (numbers, for < <= > >=) compare true. */
export function compareNodeSets(op: ComparisonOp, a: readonly DomNode[], b: readonly DomNode[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  if (op === '=') {
    const values = new Set<string>();
    for (let i = 0; i < a.length; i++) values.add(stringValue(a[i]!));
    for (let i = 0; i < b.length; i++) if (values.has(stringValue(b[i]!))) return true;
    return false;
  }
  if (op === '!=') {
    // False only when both sides hold one and the same string-value.
    const first = stringValue(a[0]!);
    for (let i = 1; i < a.length; i++) if (stringValue(a[i]!) !== first) return true;
    for (let i = 0; i < b.length; i++) if (stringValue(b[i]!) !== first) return true;
    return false;
  }
  // Some pair satisfies a < b iff min(a) < max(b) over the non-NaN numbers; likewise for the others.
  let minA = Infinity;
  let maxA = -Infinity;
  let minB = Infinity;
  let maxB = -Infinity;
  let anyA = false;
  let anyB = false;
  for (let i = 0; i < a.length; i++) {
    const x = stringToNumber(stringValue(a[i]!));
    if (x !== x) continue;
    anyA = true;
    if (x < minA) minA = x;
    if (x > maxA) maxA = x;
  }
  for (let i = 0; i < b.length; i++) {
    const x = stringToNumber(stringValue(b[i]!));
    if (x !== x) continue;
    anyB = true;
    if (x < minB) minB = x;
    if (x > maxB) maxB = x;
  }
  if (!anyA || !anyB) return false;
  switch (op) {
    case '<':
      return minA < maxB;
    case '<=':
      return minA <= maxB;
    case '>':
      return maxA > minB;
    default:
      return maxA >= minB;
  }
}

/** §3.4 for any two values. */
export function compareValues(op: ComparisonOp, a: XPathValue, b: XPathValue): boolean {
  const aNodes = isNodeSet(a);
  const bNodes = isNodeSet(b);
  if (aNodes && bNodes) return compareNodeSets(op, a, b);
  if (aNodes) return compareNodesWith(op, a, b as string | number | boolean);
  if (bNodes) return compareNodesWith(flipOp(op), b, a as string | number | boolean);
  if (op === '=' || op === '!=') {
    if (typeof a === 'boolean' || typeof b === 'boolean') {
      return (toBooleanValue(a) === toBooleanValue(b)) === (op === '=');
    }
    if (typeof a === 'number' || typeof b === 'number') return compareNumbers(op, toNumberValue(a), toNumberValue(b));
    return (a === b) === (op === '=');
  }
  return compareNumbers(op, toNumberValue(a), toNumberValue(b));
}
