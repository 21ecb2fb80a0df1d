/**
 * String helpers for the core functions. XPath counts characters, i.e.
 * Unicode code points, as lxml does: `string-length('😀')` is 1 and
 * `substring()` never splits a surrogate pair.
 */

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

export function codePointLength(s: string): number {
  let len = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if (isHighSurrogate(s.charCodeAt(i)) && isLowSurrogate(s.charCodeAt(i + 1))) {
      len--;
      i++;
    }
  }
  return len;
}

/** UTF-16 offset of the code point at `index` (0-based), or s.length past the end. */
function offsetOfCodePoint(s: string, index: number, from = 0, fromIndex = 0): number {
  let offset = from;
  for (let k = fromIndex; k < index && offset < s.length; k++) {
    offset += isHighSurrogate(s.charCodeAt(offset)) && isLowSurrogate(s.charCodeAt(offset + 1)) ? 2 : 1;
  }
  return offset;
}

/** C `int` range: libxml2 clamps positions to it. */
const INT_MAX = 2147483647;

/** Rounds half up, as libxml2 does for substring() bounds. */
function roundHalfUp(x: number): number {
  const f = Math.floor(x);
  return x - f >= 0.5 ? f + 1 : f;
}

/**
 * `substring(s, start, length?)` with libxml2's arithmetic (lxml's engine):
 * bounds round half up; NaN start or end select nothing; infinities clamp.
 */
export function substring(s: string, start: number, length?: number): string {
  let i = 1;
  let j = INT_MAX;
  if (!(start < INT_MAX)) i = INT_MAX;
  else if (start >= 1) i = roundHalfUp(start);
  if (length !== undefined) {
    const end = roundHalfUp(start) + roundHalfUp(length);
    if (!(end >= 1)) j = 1;
    else if (end < INT_MAX) j = Math.trunc(end);
  }
  if (i >= j) return '';
  const from = offsetOfCodePoint(s, i - 1);
  if (j === INT_MAX) return s.slice(from);
  return s.slice(from, offsetOfCodePoint(s, j - 1, from, i - 1));
}

function codePoints(s: string): string[] {
  return Array.from(s);
}

export function translate(s: string, from: string, to: string): string {
  const map = new Map<string, string>();
  const src = codePoints(from);
  const dst = codePoints(to);
  for (let k = 0; k < src.length; k++) {
    const c = src[k]!;
    if (!map.has(c)) map.set(c, dst[k] ?? '');
  }
  let out = '';
  for (const c of s) {
    const r = map.get(c);
    out += r === undefined ? c : r;
  }
  return out;
}

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Strips XML whitespace (space, tab, CR, LF — not NBSP) and collapses inner runs to one space. */
export function normalizeSpace(s: string): string {
  const n = s.length;
  let clean = n === 0 || (!isXmlSpace(s.charCodeAt(0)) && !isXmlSpace(s.charCodeAt(n - 1)));
  for (let i = 0; clean && i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20) clean = s.charCodeAt(i + 1) !== 0x20;
    else if (c === 0x09 || c === 0x0a || c === 0x0d) clean = false;
  }
  if (clean) return s;
  let out = '';
  let i = 0;
  while (i < n) {
    while (i < n && isXmlSpace(s.charCodeAt(i))) i++;
    const start = i;
    while (i < n && !isXmlSpace(s.charCodeAt(i))) i++;
    if (start < i) out += out.length === 0 ? s.slice(start, i) : ' ' + s.slice(start, i);
  }
  return out;
}

/**
 * Whether `token` (non-empty, no whitespace) is one of the
 * `isSpace`-separated words of `s`. This is what
 * `contains(concat(' ', normalize-space(s), ' '), ' token ')` computes, without building either string.
 */
export function containsWord(s: string, token: string, isSpace: (c: number) => boolean = isXmlSpace): boolean {
  const len = token.length;
  let at = s.indexOf(token);
  while (at >= 0) {
    const end = at + len;
    if ((at === 0 || isSpace(s.charCodeAt(at - 1))) && (end === s.length || isSpace(s.charCodeAt(end)))) return true;
    at = s.indexOf(token, at + 1);
  }
  return false;
}

export function hasXmlSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isXmlSpace(s.charCodeAt(i))) return true;
  return false;
}
