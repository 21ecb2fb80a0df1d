/**
 * XPath 1.0 tokenizer (https://www.w3.org/TR/xpath-10/#exprlex).
 *
 * The spec's lexical disambiguation rules are applied here, where the
 * previous token is at hand, so the parser sees unambiguous tokens:
 * after a token that ends an operand, `*` is multiplication and an NCName
 * must be `and`/`or`/`mod`/`div`; a name followed by `(` is a node type test
 * or a function call; a name followed by `::` is an axis. Whitespace may
 * separate any two tokens, including a name and its `(` (`not (x)`).
 */
import { XPathError } from './errors.js';

export type TokenType =
  | 'number'
  | 'literal'
  | 'variable'
  | 'name'
  | 'nodeType'
  | 'function'
  | 'axis'
  | 'operator'
  | '('
  | ')'
  | '['
  | ']'
  | '.'
  | '..'
  | '@'
  | ','
  | '::'
  | 'eof';

export interface Token {
  readonly type: TokenType;
  /** Operator symbol, axis or node type name, literal content, or the name as written. */
  readonly value: string;
  /** 0-based offset of the token's first character. */
  readonly pos: number;
  /** Name, function and variable tokens: the prefix ('' when none). */
  readonly prefix: string;
  /** Name, function and variable tokens: the local part ('*' for wildcards). */
  readonly local: string;
  /** Number tokens: the value. */
  readonly num: number;
}

export const AXES: ReadonlySet<string> = new Set([
  'ancestor',
  'ancestor-or-self',
  'attribute',
  'child',
  'descendant',
  'descendant-or-self',
  'following',
  'following-sibling',
  'namespace',
  'parent',
  'preceding',
  'preceding-sibling',
  'self',
]);

const NODE_TYPES: ReadonlySet<string> = new Set(['comment', 'text', 'processing-instruction', 'node']);
const OPERATOR_NAMES: ReadonlySet<string> = new Set(['and', 'or', 'mod', 'div']);

// XML 1.0 (5th edition) NameStartChar / NameChar, without ':' (NCName).
const NAME_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = NAME_START + '\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040';
const NCNAME = new RegExp(`[${NAME_START}][${NAME_CHAR}]*`, 'uy');

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

// pow(10, k) as glibc computes it, for lxml's exact values. V8's Math.pow(10, k)
// is one ulp off for 69 of k in [-330, 310]; glibc's is correctly rounded except
// at k = 23 and 210, where 10^k is (nearly) half-way and it rounds up (measured
// with Python's math.pow, which calls it).
const POW10_MIN = -400;
const POW10 = Float64Array.from({ length: 801 }, (_, i) => Number(`1e${i + POW10_MIN}`));
for (const k of [23, 210]) {
  const bits = new BigUint64Array(POW10.buffer, (k - POW10_MIN) * 8, 1);
  bits[0] = bits[0]! + 1n;
}

function pow10(k: number): number {
  const i = k - POW10_MIN;
  return i >= 0 && i < POW10.length ? POW10[i]! : Number(`1e${k}`);
}

/**
 * Reads a number the way libxml2 does (lxml's engine), so literals give
 * lxml's values to the last bit: digits accumulate in a double, at most 20
 * significant fraction digits count, and an exponent (`1e3`, which XPath 1.0
 * does not define but lxml accepts) scales by a power of ten. Returns the
 * value and the offset after the number, or null when there are no digits.
 * `allowSign` is for `number("-1")`; literals never carry a sign.
 */
export function scanNumber(s: string, start: number, allowSign: boolean): { value: number; end: number } | null {
  let i = start;
  let negative = false;
  if (allowSign && s.charCodeAt(i) === 0x2d) {
    negative = true;
    i++;
  }
  let value = 0;
  let digits = false;
  while (isDigit(s.charCodeAt(i))) {
    value = value * 10 + (s.charCodeAt(i) - 0x30);
    digits = true;
    i++;
  }
  if (s.charCodeAt(i) === 0x2e) {
    if (!digits && !isDigit(s.charCodeAt(i + 1))) return null;
    i++;
    let places = 0;
    while (s.charCodeAt(i) === 0x30) {
      places++;
      i++;
    }
    const max = places + 20;
    let fraction = 0;
    while (isDigit(s.charCodeAt(i)) && places < max) {
      fraction = fraction * 10 + (s.charCodeAt(i) - 0x30);
      places++;
      i++;
    }
    while (isDigit(s.charCodeAt(i))) i++;
    value += fraction / pow10(places);
    digits = true;
  }
  if (!digits && !negative) return null;
  const e = s.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    let expNegative = false;
    if (s.charCodeAt(i) === 0x2d) {
      expNegative = true;
      i++;
    } else if (s.charCodeAt(i) === 0x2b) i++;
    let exponent = 0;
    while (isDigit(s.charCodeAt(i))) {
      if (exponent < 1000000) exponent = exponent * 10 + (s.charCodeAt(i) - 0x30);
      i++;
    }
    value *= pow10(expNegative ? -exponent : exponent);
  }
  return { value: negative ? -value : value, end: i };
}

function token(type: TokenType, value: string, pos: number, prefix = '', local = '', num = 0): Token {
  return { type, value, pos, prefix, local, num };
}

/** Whether a token of this kind leaves the lexer expecting an operand next. */
function expectsOperand(prev: Token | undefined): boolean {
  if (prev === undefined) return true;
  switch (prev.type) {
    case '@':
    case '::':
    case '(':
    case '[':
    case ',':
    case 'operator':
      return true;
    default:
      return false;
  }
}

function describeChar(source: string, i: number): string {
  const cp = source.codePointAt(i)!;
  return cp > 0x20 && cp < 0x7f ? `'${String.fromCodePoint(cp)}'` : `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const n = source.length;
  let i = 0;
  const fail = (pos: number, reason: string): never => {
    throw new XPathError(source, pos, reason);
  };
  const skipSpace = (from: number): number => {
    let j = from;
    while (j < n && isSpace(source.charCodeAt(j))) j++;
    return j;
  };
  const readNCName = (from: number): string | null => {
    NCNAME.lastIndex = from;
    const m = NCNAME.exec(source);
    return m === null ? null : m[0];
  };

  while (true) {
    i = skipSpace(i);
    if (i >= n) break;
    const prev = tokens[tokens.length - 1];
    const c = source.charCodeAt(i);
    const start = i;
    switch (c) {
      case 0x28 /* ( */:
      case 0x29 /* ) */:
      case 0x5b /* [ */:
      case 0x5d /* ] */:
      case 0x40 /* @ */:
      case 0x2c /* , */:
        tokens.push(token(source[i] as TokenType, source[i]!, start));
        i++;
        continue;
      case 0x7c /* | */:
      case 0x2b /* + */:
      case 0x2d /* - */:
      case 0x3d /* = */:
        tokens.push(token('operator', source[i]!, start));
        i++;
        continue;
      case 0x2f /* / */:
        if (source.charCodeAt(i + 1) === 0x2f) {
          tokens.push(token('operator', '//', start));
          i += 2;
        } else {
          tokens.push(token('operator', '/', start));
          i++;
        }
        continue;
      case 0x21 /* ! */:
        if (source.charCodeAt(i + 1) !== 0x3d) fail(i, "'!' must be followed by '=' (the operator is '!=')");
        tokens.push(token('operator', '!=', start));
        i += 2;
        continue;
      case 0x3c /* < */:
      case 0x3e /* > */:
        if (source.charCodeAt(i + 1) === 0x3d) {
          tokens.push(token('operator', source[i] + '=', start));
          i += 2;
        } else {
          tokens.push(token('operator', source[i]!, start));
          i++;
        }
        continue;
      case 0x3a /* : */:
        if (source.charCodeAt(i + 1) === 0x3a) {
          tokens.push(token('::', '::', start));
          i += 2;
          continue;
        }
        return fail(i, "unexpected ':' (a prefix needs a name before it, an axis is written 'axis::')");
      case 0x22 /* " */:
      case 0x27 /* ' */: {
        const close = source.indexOf(source[i]!, i + 1);
        if (close < 0) fail(i, `unterminated string literal (no closing ${source[i]})`);
        tokens.push(token('literal', source.slice(i + 1, close), start));
        i = close + 1;
        continue;
      }
      case 0x24 /* $ */: {
        const prefixOrLocal = readNCName(i + 1);
        if (prefixOrLocal === null) return fail(i, "'$' must be followed by a variable name");
        let j = i + 1 + prefixOrLocal.length;
        let prefix = '';
        let local = prefixOrLocal;
        if (source.charCodeAt(j) === 0x3a && source.charCodeAt(j + 1) !== 0x3a) {
          const after = readNCName(j + 1);
          if (after === null) return fail(j, `expected a name after '${prefixOrLocal}:'`);
          prefix = prefixOrLocal;
          local = after;
          j += 1 + after.length;
        }
        tokens.push(token('variable', source.slice(i + 1, j), start, prefix, local));
        i = j;
        continue;
      }
      case 0x2e /* . */:
        if (source.charCodeAt(i + 1) === 0x2e) {
          tokens.push(token('..', '..', start));
          i += 2;
          continue;
        }
        if (!isDigit(source.charCodeAt(i + 1))) {
          tokens.push(token('.', '.', start));
          i++;
          continue;
        }
        break;
      case 0x2a /* * */:
        if (expectsOperand(prev)) tokens.push(token('name', '*', start, '', '*'));
        else tokens.push(token('operator', '*', start));
        i++;
        continue;
    }

    if (isDigit(c) || c === 0x2e) {
      const scanned = scanNumber(source, i, false)!;
      tokens.push(token('number', source.slice(i, scanned.end), start, '', '', scanned.value));
      i = scanned.end;
      continue;
    }

    const first = readNCName(i);
    if (first === null) return fail(i, `unexpected character ${describeChar(source, i)}`);
    i += first.length;

    if (!expectsOperand(prev)) {
      if (!OPERATOR_NAMES.has(first)) {
        return fail(start, `expected an operator or the end of the expression, found '${first}'`);
      }
      tokens.push(token('operator', first, start));
      continue;
    }

    let prefix = '';
    let local = first;
    if (source.charCodeAt(i) === 0x3a && source.charCodeAt(i + 1) !== 0x3a) {
      if (source.charCodeAt(i + 1) === 0x2a) {
        tokens.push(token('name', `${first}:*`, start, first, '*'));
        i += 2;
        continue;
      }
      const second = readNCName(i + 1);
      if (second === null) return fail(i + 1, `expected a name or '*' after '${first}:'`);
      prefix = first;
      local = second;
      i += 1 + second.length;
    }
    const next = skipSpace(i);
    const written = source.slice(start, i);
    if (prefix === '' && source.charCodeAt(next) === 0x3a && source.charCodeAt(next + 1) === 0x3a) {
      if (!AXES.has(first)) return fail(start, `unknown axis '${first}'`);
      tokens.push(token('axis', first, start));
      continue;
    }
    if (source.charCodeAt(next) === 0x28 /* ( */) {
      if (prefix === '' && NODE_TYPES.has(first)) tokens.push(token('nodeType', first, start));
      else tokens.push(token('function', written, start, prefix, local));
      continue;
    }
    tokens.push(token('name', written, start, prefix, local));
  }
  tokens.push(token('eof', '', n));
  return tokens;
}
