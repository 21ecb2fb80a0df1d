/**
 * `an+b` arguments of `:nth-child()` and friends, read as cssselect reads them:
 * the argument tokens' values are glued together, split at the first 'n', and
 * each side goes through Python's `int()`. That accepts more than CSS does
 * (`1_0`, any Unicode decimal digits, surrounding whitespace), and seine
 * accepts the same. Values are BigInts because Python's ints are unbounded
 * and the XPath must print `b-1` exactly.
 */
import type { Token } from './tokenizer.js';

/** Characters Python's str.strip() and int() treat as whitespace. */
const PY_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP_RE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
const PY_INT_RE = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u;
const DECIMAL_DIGIT_RE = /^\p{Nd}$/u;
/** CPython 3.11's limit on the digits int() converts from a string (sys.get_int_max_str_digits()). */
const MAX_STR_DIGITS = 4300;

function pyStrip(text: string): string {
  return text.replace(PY_STRIP_RE, '');
}

/** Value of a Unicode decimal digit: they come in runs of ten, 0 to 9. */
function digitValue(codePoint: number): number {
  if (codePoint >= 0x30 && codePoint <= 0x39) return codePoint - 0x30;
  let start = codePoint;
  while (DECIMAL_DIGIT_RE.test(String.fromCodePoint(start - 1))) start--;
  return (codePoint - start) % 10;
}

/** Python's int(text) in base 10, or null where it raises ValueError. */
export function pythonInt(text: string): bigint | null {
  const m = PY_INT_RE.exec(pyStrip(text));
  if (m === null) return null;
  let digits = '';
  for (const ch of m[2]!) {
    if (ch !== '_') digits += String(digitValue(ch.codePointAt(0)!));
  }
  if (digits.length > MAX_STR_DIGITS) return null;
  const value = BigInt(digits);
  return m[1] === '-' ? -value : value;
}

/** [a, b] for the argument tokens, or null where cssselect reports an invalid series. */
export function parseSeries(args: readonly Token[]): [bigint, bigint] | null {
  if (args.some((token) => token.type === 'STRING')) return null;
  const s = pyStrip(args.map((token) => token.value).join(''));
  if (s === 'odd') return [2n, 1n];
  if (s === 'even') return [2n, 0n];
  if (s === 'n') return [1n, 0n];
  const at = s.indexOf('n');
  if (at === -1) {
    const b = pythonInt(s);
    return b === null ? null : [0n, b];
  }
  const aText = s.slice(0, at);
  const bText = s.slice(at + 1);
  const a = aText === '' ? 1n : aText === '-' || aText === '+' ? pythonInt(`${aText}1`) : pythonInt(aText);
  const b = bText === '' ? 0n : pythonInt(bText);
  return a === null || b === null ? null : [a, b];
}
