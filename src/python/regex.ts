/**
 * Python `re` patterns and replacement templates, run on JavaScript RegExp.
 *
 * lxml implements the EXSLT `re:*` functions with Python's `re` module, so
 * parsel users write Python regex syntax there. Most of it is JavaScript
 * syntax too; the translation below covers the differences that change
 * results: `(?P<name>…)`/`(?P=name)`, leading inline flags `(?imsx)`, `\d`
 * `\w` `\s` `\b` with Python's Unicode meaning (JavaScript's are ASCII),
 * `.` and `$` (Python's `$` also matches before a final newline), `\A` `\Z`,
 * `{,n}`, and braces or `]` that Python reads as literals. Patterns run
 * with the `v` flag, whose nested classes express `[^\W]`; every
 * punctuation character inside a class is escaped for it. Not translated
 * (JavaScript raises): scoped flags `(?i:…)`, conditionals, atomic groups
 * and possessive quantifiers. Known difference: after an empty match,
 * JavaScript moves on one character where Python retries for a non-empty
 * match at the same place (`re:replace('aaa', 'a*?', 'g', '-')`).
 */

const WORD = '\\p{L}\\p{N}_';
// Python's str.isspace() characters; JavaScript's \s lacks \x1c-\x1f and \x85 and adds \ufeff.
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WORD_BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`;
const NOT_WORD_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`;
// Patterns never get JavaScript's `m` flag, so `^` and `$` are the start and end of the input, as Python's \A and \Z.
// A lookbehind `(?<![\s\S])` said the same but let V8 try every position: `^\w+` on a 100 KB text took 420 µs, `^` 0.2 µs.
export const START = '^';
export const END = '$';
// Python's word characters, to tell whether an atom next to \b or \B always matches one.
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const SYNTAX_CHARS = '^$\\.*+?()[]{}|/';
// Characters that must be escaped inside a `v`-flag class (syntax characters and reserved punctuators).
const CLASS_ESCAPED = SYNTAX_CHARS + '&-!#%,:;<=>@`~';

export interface TranslatedRegex {
  readonly source: string;
  /** Always 'v', plus 'i' for `(?i)`. */
  readonly flags: string;
  readonly groupNames: readonly string[];
}

export class PythonRegexError extends Error {}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isOctal(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '7';
}

function isAsciiLetter(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

function codePointEscape(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

export function translatePythonRegex(pattern: string): TranslatedRegex {
  let i = 0;
  let ignoreCase = false;
  let multiline = false;
  let dotAll = false;
  let verbose = false;
  const leading = /\(\?([aiLmsux]+)\)/y;
  for (;;) {
    leading.lastIndex = i;
    const m = leading.exec(pattern);
    if (m === null) break;
    for (const f of m[1]!) {
      if (f === 'i') ignoreCase = true;
      else if (f === 'm') multiline = true;
      else if (f === 's') dotAll = true;
      else if (f === 'x') verbose = true;
      else if (f === 'L') throw new PythonRegexError('the (?L) flag only applies to bytes patterns');
    }
    i = leading.lastIndex;
  }

  const groupNames: string[] = [];
  let out = '';
  let inClass = false;
  let classStart = false;
  // Inside a class: the last item was one character that a '-' may extend to a range / it ended a range.
  let rangeStart = false;
  let rangeEnd = false;
  const n = pattern.length;
  // The last atom outside a class always matches one word character (`k`, `\w`, `\d`): \b after it needs only a lookahead.
  let lastWord = false;
  while (i < n) {
    const c = pattern[i]!;
    if (verbose && !inClass) {
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
        i++;
        continue;
      }
      if (c === '#') {
        while (i < n && pattern[i] !== '\n') i++;
        continue;
      }
    }
    if (c === '\\') {
      const [text, length, single] = translateEscape(pattern, i, inClass, !inClass && lastWord, verbose);
      out += text;
      lastWord = !inClass && (pattern[i + 1] === 'w' || pattern[i + 1] === 'd');
      i += length;
      classStart = false;
      rangeStart = single && !rangeEnd;
      rangeEnd = false;
      continue;
    }
    // Only an atom that always matches one word character counts: a `+` keeps it, `?` `*` `{` may remove it.
    lastWord = (lastWord && c === '+') || (!inClass && WORD_CHAR.test(c));
    if (inClass) {
      if (c === ']' && !classStart) {
        inClass = false;
        out += ']';
      } else if (c === '-' && rangeStart && i + 1 < n && pattern[i + 1] !== ']') {
        out += '-';
        rangeStart = false;
        rangeEnd = true;
      } else {
        out += classChar(c);
        rangeStart = !rangeEnd;
        rangeEnd = false;
      }
      classStart = false;
      i++;
      continue;
    }
    switch (c) {
      case '[':
        inClass = true;
        classStart = true;
        rangeStart = false;
        rangeEnd = false;
        out += '[';
        if (pattern[i + 1] === '^') {
          out += '^';
          i++;
        }
        i++;
        continue;
      case '.':
        out += dotAll ? '[\\s\\S]' : '[^\\n]';
        i++;
        continue;
      case '$':
        out += multiline ? `(?=\\n|${END})` : `(?=\\n?${END})`;
        i++;
        continue;
      case '^':
        out += multiline ? `(?:${START}|(?<=\\n))` : START;
        i++;
        continue;
      case '{': {
        const q = /\{(\d*)(?:(,)(\d*))?\}/y;
        q.lastIndex = i;
        const m = q.exec(pattern);
        if (m === null || (m[1] === '' && m[2] === undefined)) {
          out += '\\{';
          i++;
        } else {
          const lo = m[1] === '' ? '0' : m[1]!;
          out += m[2] === undefined ? `{${lo}}` : `{${lo},${m[3]}}`;
          i = q.lastIndex;
        }
        continue;
      }
      case '}':
      case ']':
        out += '\\' + c;
        i++;
        continue;
      case '(': {
        const rest = pattern.slice(i, i + 4);
        if (rest.startsWith('(?P<')) {
          const close = pattern.indexOf('>', i);
          if (close < 0) throw new PythonRegexError(`missing >, unterminated name at position ${i + 4}`);
          groupNames.push(pattern.slice(i + 4, close));
          out += '(?<';
          i += 4;
          continue;
        }
        if (rest.startsWith('(?P=')) {
          const close = pattern.indexOf(')', i);
          if (close < 0) throw new PythonRegexError(`missing ), unterminated name at position ${i + 4}`);
          out += `\\k<${pattern.slice(i + 4, close)}>`;
          i = close + 1;
          continue;
        }
        if (rest.startsWith('(?#')) {
          const close = pattern.indexOf(')', i);
          if (close < 0) throw new PythonRegexError(`missing ), unterminated comment at position ${i}`);
          i = close + 1;
          continue;
        }
        if (rest.startsWith('(?<') && rest[3] !== '=' && rest[3] !== '!') {
          throw new PythonRegexError(`unknown extension ?<${rest[3] ?? ''} at position ${i + 1}`);
        }
        if (/^\(\?[aiLmsux-]+[:)]/.test(pattern.slice(i, i + 12))) {
          throw new PythonRegexError(`inline flags are supported only at the start of the pattern (position ${i})`);
        }
        out += '(';
        i++;
        continue;
      }
      default:
        out += c;
        i++;
    }
  }
  if (inClass) throw new PythonRegexError('unterminated character set');
  return { source: out, flags: ignoreCase ? 'iv' : 'v', groupNames };
}

/**
 * \b or \B at `pattern[at]` as the cheapest exact lookaround: next to an
 * atom that always matches one word character, one side is known, so one
 * lookaround says it. V8 runs the two-sided form at every position of the
 * input: `\bstock\b` on a 100 KB page took 1,160 µs with it, 80 µs with
 * `(?<![…])stock(?![…])` (JavaScript's ASCII `\b`: 120 µs).
 */
function boundary(pattern: string, at: number, afterWord: boolean, verbose: boolean, ifAfter: string, ifBefore: string, general: string): string {
  if (afterWord) return ifAfter;
  if (verbose) return general; // spaces and comments may stand between \b and the next atom
  let next = at + 2;
  const c = pattern[next];
  if (c === undefined) return general;
  if (c === '\\') {
    if (pattern[next + 1] !== 'w' && pattern[next + 1] !== 'd') return general;
    next += 2;
  } else if (WORD_CHAR.test(c)) next += 1;
  else return general;
  const quantifier = pattern[next];
  return quantifier === '?' || quantifier === '*' || quantifier === '{' ? general : ifBefore;
}

function classChar(ch: string): string {
  return CLASS_ESCAPED.includes(ch) ? '\\' + ch : ch;
}

/**
 * Translates the escape at `pattern[at]` (a backslash): the JavaScript text,
 * the length consumed, and whether it stands for one character (a possible
 * range bound inside a class).
 */
function translateEscape(pattern: string, at: number, inClass: boolean, afterWord = false, verbose = false): [string, number, boolean] {
  const d = pattern[at + 1];
  if (d === undefined) throw new PythonRegexError('bad escape (end of pattern)');
  switch (d) {
    case 'd':
      return ['\\p{Nd}', 2, false];
    case 'D':
      return ['\\P{Nd}', 2, false];
    case 'w':
      return [inClass ? WORD : `[${WORD}]`, 2, false];
    case 'W':
      return [`[^${WORD}]`, 2, false];
    case 's':
      return [inClass ? SPACE : `[${SPACE}]`, 2, false];
    case 'S':
      return [`[^${SPACE}]`, 2, false];
    case 'b':
      if (inClass) return ['\\x08', 2, true];
      return [boundary(pattern, at, afterWord, verbose, `(?![${WORD}])`, `(?<![${WORD}])`, WORD_BOUNDARY), 2, false];
    case 'B':
      if (inClass) throw new PythonRegexError('bad escape \\B');
      return [boundary(pattern, at, afterWord, verbose, `(?=[${WORD}])`, `(?<=[${WORD}])`, NOT_WORD_BOUNDARY), 2, false];
    case 'A':
      return [START, 2, false];
    case 'Z':
      return [END, 2, false];
    case 'a':
      return ['\\x07', 2, true];
    case 'n':
    case 't':
    case 'r':
    case 'f':
    case 'v':
      return ['\\' + d, 2, true];
    case 'x': {
      const hex = pattern.slice(at + 2, at + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new PythonRegexError(`incomplete escape \\x${hex}`);
      return [`\\x${hex}`, 4, true];
    }
    case 'u':
    case 'U': {
      const len = d === 'u' ? 4 : 8;
      const hex = pattern.slice(at + 2, at + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new PythonRegexError(`incomplete escape \\${d}${hex}`);
      return [codePointEscape(parseInt(hex, 16)), 2 + len, true];
    }
  }
  if (isDigit(d)) {
    // Python: \0 and three octal digits are characters; one or two digits are a group reference.
    let octal = d === '0';
    let digits = d;
    if (!octal && isOctal(d) && isOctal(pattern[at + 2]) && isOctal(pattern[at + 3])) {
      octal = true;
      digits = pattern.slice(at + 1, at + 4);
    }
    if (octal || inClass) {
      if (d === '0') {
        digits = '0';
        while (digits.length < 3 && isOctal(pattern[at + 1 + digits.length])) digits += pattern[at + 1 + digits.length];
      }
      return [codePointEscape(parseInt(digits, 8)), 1 + digits.length, true];
    }
    if (isDigit(pattern[at + 2])) digits += pattern[at + 2];
    return [`(?:\\${digits})`, 1 + digits.length, false];
  }
  if (isAsciiLetter(d)) throw new PythonRegexError(`bad escape \\${d}`);
  const ch = String.fromCodePoint(pattern.codePointAt(at + 1)!);
  if (inClass) return [classChar(ch), 1 + ch.length, true];
  return [SYNTAX_CHARS.includes(ch) ? '\\' + ch : ch, 1 + ch.length, true];
}

type TemplatePart = string | number | { readonly name: string };

/**
 * A Python `re.sub` replacement template: `\1`, `\g<1>`, `\g<name>`,
 * `\n`-style escapes; `$` is literal. Returns a function building the
 * replacement from a match (JavaScript's own `$1` syntax is never used).
 */
export function compileTemplate(template: string, groupCount: number, groupNames: readonly string[]): (m: RegExpExecArray | string[], groups: Record<string, string | undefined> | undefined) => string {
  const parts: TemplatePart[] = [];
  let literal = '';
  const flush = () => {
    if (literal !== '') parts.push(literal);
    literal = '';
  };
  const group = (index: number) => {
    if (index > groupCount) throw new PythonRegexError(`invalid group reference ${index}`);
    flush();
    parts.push(index);
  };
  const escapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '\\') {
      literal += c;
      continue;
    }
    const d = template[i + 1];
    if (d === undefined) throw new PythonRegexError('bad escape (end of pattern)');
    if (d === 'g') {
      const m = /^<([^>]*)>/.exec(template.slice(i + 2));
      if (m === null) throw new PythonRegexError('missing < or > in \\g<…> group reference');
      const ref = m[1]!;
      if (/^\d+$/.test(ref)) group(Number(ref));
      else if (groupNames.includes(ref)) {
        flush();
        parts.push({ name: ref });
      } else throw new PythonRegexError(`unknown group name '${ref}'`);
      i += 2 + m[0].length - 1;
    } else if (d === '0') {
      let digits = '0';
      while (digits.length < 3 && isOctal(template[i + 1 + digits.length])) digits += template[i + 1 + digits.length];
      literal += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length;
    } else if (isDigit(d)) {
      const e = template[i + 2];
      if (isOctal(d) && isOctal(e) && isOctal(template[i + 3])) {
        literal += String.fromCharCode(parseInt(template.slice(i + 1, i + 4), 8));
        i += 3;
      } else if (isDigit(e)) {
        group(Number(d + e));
        i += 2;
      } else {
        group(Number(d));
        i += 1;
      }
    } else if (escapes[d] !== undefined) {
      literal += escapes[d];
      i++;
    } else if (isAsciiLetter(d)) {
      throw new PythonRegexError(`bad escape \\${d}`);
    } else {
      literal += '\\' + d;
      i++;
    }
  }
  flush();
  return (m, groups) => {
    let s = '';
    for (const part of parts) {
      if (typeof part === 'string') s += part;
      else if (typeof part === 'number') s += m[part] ?? '';
      else s += groups?.[part.name] ?? '';
    }
    return s;
  };
}
