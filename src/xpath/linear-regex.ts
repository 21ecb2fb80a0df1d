/**
 * A linear-time engine for the EXSLT regular expressions: RE2, through the
 * `re2-wasm` package (WebAssembly, no native build). JavaScript's RegExp
 * backtracks: `re:test(., '(a+)+$')` on 35 `a`s and a `b` runs for hours
 * and blocks the event loop. RE2 runs it in microseconds, for any input.
 *
 * RE2 has no lookaround and no backreference, so it takes the patterns
 * whose translation (src/python/regex.ts, for JavaScript's `v` flag) uses only
 * constructs with an exact RE2 equivalent; the others stay on JavaScript's
 * engine (`toLinear` returns null). The translation's anchors map exactly
 * (`\A`, `\z`, `(?m:^)`, `(?m:$)`) except Python's `$` without `(?m)` —
 * the end, or before a final newline —, which RE2 can only say by
 * consuming the newline (`\n?\z`): exact for re:test, and for re:match and
 * re:replace on strings that do not end with a newline (`exactFor`).
 * `\b`/`\B` (Unicode word boundaries: lookarounds here), backreferences,
 * lookarounds and nested classes (`[\W]`) stay on RegExp.
 * See docs/selectors.md ("Regular expressions: the linear engine") for what
 * was measured.
 */
import { lazyPackage } from '../errors/lazy-package.js';
import { END, START } from '../python/regex.js';

interface Re2Match extends Array<string | undefined> {
  index: number;
  groups?: Record<string, string | undefined>;
}

interface Re2 {
  lastIndex: number;
  exec(s: string): Re2Match | null;
  test(s: string): boolean;
}

type Re2Class = new (pattern: string, flags: string) => Re2;

let re2Class: Re2Class | null | undefined;
const re2Package = lazyPackage<{ RE2: Re2Class }>('re2-wasm', 'linear-time regular expressions');

/** The RE2 class of re2-wasm, loaded on first use (about 30 ms, once); null when it cannot be loaded. */
function loadRe2(): Re2Class | null {
  if (re2Class === undefined) {
    try {
      re2Class = re2Package().RE2;
    } catch {
      re2Class = null;
    }
  }
  return re2Class;
}

/** Turns the linear engine off (false) or on (true, the default): for measurements and tests. */
let enabled = process.env['SEINE_REGEX_ENGINE'] !== 'js';
export function useLinearRegex(on: boolean): void {
  enabled = on;
}

export interface LinearRegex {
  /** True when the pattern has Python's `$` (RE2 consumes a final newline there). */
  readonly dollar: boolean;
  /** Whether match positions and texts equal Python's on `s` (always true for test()). */
  exactFor(s: string): boolean;
  test(s: string): boolean;
  /** The first match, or null. */
  exec(s: string): Re2Match | null;
  /**
   * Every match, left to right, as String.prototype.matchAll with a `v`/`u`
   * flag gives them. re2-wasm copies the whole string into WebAssembly at
   * each call (about 13 ms per call on 1 MB), so many matches in a long
   * string would take quadratic time: once the calls have copied
   * GLOBAL_BUDGET characters, the rest is matched by `fallback` (the same
   * pattern as a global RegExp) from where RE2 stopped.
   */
  all(s: string, fallback: RegExp): Array<Re2Match | RegExpExecArray>;
}

const DOLLAR = `(?=\\n?${END})`;
const MULTILINE_DOLLAR = `(?=\\n|${END})`;
const MULTILINE_CARET = `(?:${START}|(?<=\\n))`;

/**
 * The RE2 pattern for a translated source, or null when it uses something
 * RE2 has no exact equivalent for. Scans the source once, token by token.
 */
export function toRe2Source(source: string): { source: string; dollar: boolean } | null {
  let out = '';
  let dollar = false;
  let inClass = false;
  for (let i = 0; i < source.length; ) {
    if (!inClass) {
      if (source.startsWith(MULTILINE_CARET, i)) {
        out += '(?m:^)';
        i += MULTILINE_CARET.length;
        continue;
      }
      if (source.startsWith(MULTILINE_DOLLAR, i)) {
        out += '(?m:$)';
        i += MULTILINE_DOLLAR.length;
        continue;
      }
      if (source.startsWith(DOLLAR, i)) {
        out += '(?:\\n?\\z)';
        dollar = true;
        i += DOLLAR.length;
        continue;
      }
      if (source.startsWith(START, i)) {
        out += '\\A';
        i += START.length;
        continue;
      }
      if (source.startsWith(END, i)) {
        out += '\\z';
        i += END.length;
        continue;
      }
    }
    const c = source[i]!;
    if (c === '\\') {
      const d = source[i + 1];
      if (d === undefined) return null;
      if (d === 'k' || (d >= '1' && d <= '9')) return null; // backreference
      if (d === 'u' && source[i + 2] === '{') {
        const close = source.indexOf('}', i);
        out += `\\x{${source.slice(i + 3, close)}}`;
        i = close + 1;
        continue;
      }
      if (d === 'p' || d === 'P') {
        const close = source.indexOf('}', i);
        out += source.slice(i, close + 1);
        i = close + 1;
        continue;
      }
      out += c + d;
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === '[') return null; // a nested class (`v` flag): RE2 would read a literal '['
      if (c === ']') inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (source[i + 1] === '^') {
        out += '^';
        i++;
      }
      i++;
      continue;
    }
    if (c === '(' && source[i + 1] === '?') {
      const next = source[i + 2];
      if (next === ':') {
        out += '(?:';
        i += 3;
        continue;
      }
      if (next === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        out += '(?P<';
        i += 3;
        continue;
      }
      return null; // lookahead, lookbehind (\b, \B, anything else)
    }
    out += c;
    i++;
  }
  return { source: out, dollar };
}

/** Characters re2-wasm may copy in one all() before RegExp takes over (a few ms of copying). */
export const GLOBAL_BUDGET = 1 << 20;

/** Where matching goes on after an empty match at `at`: one code point further (AdvanceStringIndex with the u/v flag). */
function advance(s: string, at: number): number {
  const code = s.charCodeAt(at);
  return at + (code >= 0xd800 && code <= 0xdbff && at + 1 < s.length ? 2 : 1);
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * re2-wasm counts `index` and `lastIndex` in code points, RegExp in UTF-16
 * units: they differ after a character outside the BMP (an emoji). A cursor
 * that converts code-point positions to UTF-16 ones, moving forward only.
 */
class Positions {
  #cp = 0;
  #u16 = 0;
  constructor(private readonly s: string) {}
  /** The UTF-16 index of code point `cp` (not before the last one asked). */
  u16(cp: number): number {
    while (this.#cp < cp && this.#u16 < this.s.length) {
      this.#u16 = advance(this.s, this.#u16);
      this.#cp++;
    }
    return this.#u16;
  }
}

/** A match with its index in UTF-16 units. */
function inUtf16(m: Re2Match, index: number): Re2Match {
  m.index = index;
  return m;
}

/** The number of code points in `text`. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i = advance(text, i)) count++;
  return count;
}

const cache = new Map<string, LinearRegex | null>();
const CACHE_LIMIT = 500;

/** The linear engine for a translated pattern (`flags`: the translation's, 'v' or 'iv'), or null: use RegExp. */
export function toLinear(source: string, flags: string): LinearRegex | null {
  if (!enabled) return null;
  const key = flags + '/' + source;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const linear = build(source, flags);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, linear);
  return linear;
}

function build(source: string, flags: string): LinearRegex | null {
  const RE2 = loadRe2();
  if (RE2 === null) return null;
  const translated = toRe2Source(source);
  if (translated === null) return null;
  const re2Flags = flags.includes('i') ? 'iu' : 'u';
  let once: Re2;
  let global: Re2;
  try {
    once = new RE2(translated.source, re2Flags);
    global = new RE2(translated.source, re2Flags + 'g');
  } catch {
    return null; // RE2 refuses it (a repeat above 1000, …): RegExp runs it
  }
  const { dollar } = translated;
  return {
    dollar,
    exactFor: (s) => !dollar || !s.endsWith('\n'),
    test: (s) => once.test(s),
    exec: (s) => {
      const m = once.exec(s);
      if (m === null || !SURROGATE.test(s)) return m;
      return inUtf16(m, new Positions(s).u16(m.index));
    },
    all: (s, fallback) => {
      const matches: Array<Re2Match | RegExpExecArray> = [];
      const positions = SURROGATE.test(s) ? new Positions(s) : null;
      const total = positions === null ? s.length : codePoints(s);
      // `from` in UTF-16 units, `fromCp` in code points (re2-wasm's).
      let from = 0;
      let fromCp = 0;
      let copied = 0;
      for (;;) {
        if (fromCp > total) return matches;
        copied += s.length;
        if (copied > GLOBAL_BUDGET && matches.length > 0) break;
        global.lastIndex = fromCp;
        const m = global.exec(s);
        if (m === null) return matches;
        const matchCp = m.index;
        const index = positions === null ? matchCp : positions.u16(matchCp);
        matches.push(inUtf16(m, index));
        if (m[0] === '') {
          from = index >= s.length ? s.length + 1 : advance(s, index);
          fromCp = matchCp + 1;
        } else {
          from = index + m[0]!.length;
          fromCp = positions === null ? from : matchCp + codePoints(m[0]!);
        }
      }
      // Long string, many matches: RegExp from here (same results, as the tests check; backtracking again).
      fallback.lastIndex = from;
      for (;;) {
        const m = fallback.exec(s);
        if (m === null) break;
        matches.push(m);
        if (m[0] === '') {
          if (m.index >= s.length) break;
          fallback.lastIndex = advance(s, m.index);
        }
      }
      fallback.lastIndex = 0;
      return matches;
    },
  };
}
