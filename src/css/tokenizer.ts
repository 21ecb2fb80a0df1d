/**
 * CSS selector tokenizer with cssselect 1.2's token grammar.
 *
 * Why not css-what's: seine must accept and reject exactly what cssselect
 * does, and produce its XPath from the same token values. css-what (checked,
 * v8) accepts `a:is(a,b)`, `a:not(b, c)` and `[x=1]`, which cssselect
 * rejects, and hands `:contains(a b)` (an error in cssselect: two arguments)
 * over as the same data as `:contains("a b")`. Tokens that keep their type and
 * position are what the translation rules are written against.
 *
 * Tokens are produced lazily because cssselect reports the first error the
 * parser reaches: in `a) "x` the stray ')' is reported, not the unclosed
 * string after it.
 */
import { CssFailure, printable } from './css-error.js';

export type TokenType = 'IDENT' | 'HASH' | 'STRING' | 'S' | 'DELIM' | 'NUMBER' | 'EOF';

export interface Token {
  readonly type: TokenType;
  /** Unescaped value; the character for DELIM, ' ' for S, '' for EOF. */
  readonly value: string;
  /** UTF-16 index of the token's first character in the parsed string. */
  readonly pos: number;
}

// The grammar's building blocks, case-insensitive as cssselect compiles them.
const UNICODE_ESCAPE = '\\\\([0-9a-f]{1,6})(?:\\r\\n|[ \\n\\r\\t\\f])?';
const ESCAPE = `${UNICODE_ESCAPE}|\\\\[^\\n\\r\\f0-9a-f]`;
const STRING_ESCAPE = `\\\\(?:\\n|\\r\\n|\\r|\\f)|${ESCAPE}`;
const NONASCII = '[^\\x00-\\x7f]';
const NMCHAR = `[_a-z0-9-]|${ESCAPE}|${NONASCII}`;
const NMSTART = `[_a-z]|${ESCAPE}|${NONASCII}`;

const WHITESPACE_RE = /[ \t\r\n\f]+/y;
const IDENT_RE = new RegExp(`-?(?:${NMSTART})(?:${NMCHAR})*`, 'iy');
const HASH_RE = new RegExp(`#(?:${NMCHAR})+`, 'iy');
const NUMBER_RE = /[+-]?(?:[0-9]*\.[0-9]+|[0-9]+)/y;
const STRING_BODY_RE: Record<string, RegExp> = {
  "'": new RegExp(`(?:[^\\n\\r\\f\\\\']|${STRING_ESCAPE})*`, 'iy'),
  '"': new RegExp(`(?:[^\\n\\r\\f\\\\"]|${STRING_ESCAPE})*`, 'iy'),
};

const UNICODE_ESCAPE_GLOBAL = new RegExp(UNICODE_ESCAPE, 'gi');
// `[^\n]` rather than `.`: Python's `.` also matches '\r', '\u2028' and '\u2029'.
const SIMPLE_ESCAPE_GLOBAL = /\\([^\n])/g;
const NEWLINE_ESCAPE_GLOBAL = /\\(?:\n|\r\n|\r|\f)/g;

function decodeCodePoint(_match: string, hex: string): string {
  const codePoint = parseInt(hex, 16);
  return String.fromCodePoint(codePoint > 0x10ffff ? 0xfffd : codePoint);
}

/**
 * Resolves escapes the way cssselect does: hex escapes first, then `\x` → `x`
 * over the result, so a hex escape that yields a backslash can escape the
 * next character.
 */
export function unescape(text: string): string {
  return text.replace(UNICODE_ESCAPE_GLOBAL, decodeCodePoint).replace(SIMPLE_ESCAPE_GLOBAL, '$1');
}

function matchAt(re: RegExp, text: string, pos: number): string | null {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m === null ? null : m[0];
}

export function* tokenize(text: string): Generator<Token, void, void> {
  let pos = 0;
  const length = text.length;
  while (pos < length) {
    let m = matchAt(WHITESPACE_RE, text, pos);
    if (m !== null) {
      yield { type: 'S', value: ' ', pos };
      pos += m.length;
      continue;
    }
    m = matchAt(IDENT_RE, text, pos);
    if (m !== null) {
      yield { type: 'IDENT', value: unescape(m), pos };
      pos += m.length;
      continue;
    }
    m = matchAt(HASH_RE, text, pos);
    if (m !== null) {
      yield { type: 'HASH', value: unescape(m.slice(1)), pos };
      pos += m.length;
      continue;
    }
    const quote = text[pos]!;
    const bodyRe = STRING_BODY_RE[quote];
    if (bodyRe !== undefined) {
      const body = matchAt(bodyRe, text, pos + 1) ?? '';
      const end = pos + 1 + body.length;
      if (end === length) throw new CssFailure(pos, 'unclosed string');
      if (text[end] !== quote) {
        throw new CssFailure(
          pos,
          text[end] === '\\'
            ? 'invalid string: it ends with a lone backslash'
            : 'invalid string: a line break inside quotes must be escaped',
        );
      }
      yield { type: 'STRING', value: unescape(body.replace(NEWLINE_ESCAPE_GLOBAL, '')), pos };
      pos = end + 1;
      continue;
    }
    m = matchAt(NUMBER_RE, text, pos);
    if (m !== null) {
      yield { type: 'NUMBER', value: m, pos };
      pos += m.length;
      continue;
    }
    if (text.startsWith('/*', pos)) {
      const close = text.indexOf('*/', pos + 2);
      pos = close === -1 ? length : close + 2;
      continue;
    }
    yield { type: 'DELIM', value: quote, pos };
    pos += 1;
  }
  yield { type: 'EOF', value: '', pos };
}

/** How a token reads in an error message. */
export function describeToken(token: Token): string {
  const value = printable(token.value);
  switch (token.type) {
    case 'EOF':
      return 'end of input';
    case 'S':
      return 'whitespace';
    case 'DELIM':
      return `'${value}'`;
    case 'HASH':
      return `'#${value}'`;
    case 'IDENT':
      return `name '${value}'`;
    case 'STRING':
      return `string '${value}'`;
    case 'NUMBER':
      return `number ${value}`;
  }
}

/** How a function's argument list reads in an error message. */
export function describeArguments(args: readonly Token[]): string {
  if (args.length === 0) return 'nothing';
  return args.map(describeToken).join(', ');
}

export function isDelim(token: Token, ...values: string[]): boolean {
  return token.type === 'DELIM' && values.includes(token.value);
}

/**
 * cssselect's token stream: `used` lists every token consumed so far, which
 * the `:scope` placement rule inspects. Reading past the end token is an error
 * (in cssselect a StopIteration that surfaces as a RuntimeError).
 */
export class TokenStream {
  readonly used: Token[] = [];
  private readonly tokens: Generator<Token, void, void>;
  private peeked: Token | null = null;
  private readonly endPos: number;

  constructor(text: string) {
    this.tokens = tokenize(text);
    this.endPos = text.length;
  }

  private pull(): Token {
    const step = this.tokens.next();
    if (step.done === true) throw new CssFailure(this.endPos, 'unexpected end of input (a parenthesis is not closed)');
    return step.value;
  }

  next(): Token {
    const token = this.peeked ?? this.pull();
    this.peeked = null;
    this.used.push(token);
    return token;
  }

  peek(): Token {
    if (this.peeked === null) this.peeked = this.pull();
    return this.peeked;
  }

  nextIdent(what: string): string {
    const token = this.next();
    if (token.type !== 'IDENT') throw new CssFailure(token.pos, `expected ${what}, got ${describeToken(token)}`);
    return token.value;
  }

  /** An identifier's value, or null for '*'. */
  nextIdentOrStar(what: string): string | null {
    const token = this.next();
    if (token.type === 'IDENT') return token.value;
    if (isDelim(token, '*')) return null;
    throw new CssFailure(token.pos, `expected ${what}, got ${describeToken(token)}`);
  }

  skipWhitespace(): void {
    if (this.peek().type === 'S') this.next();
  }
}
