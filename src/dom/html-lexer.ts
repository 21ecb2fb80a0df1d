/**
 * A lexer for the HTML that pages are almost always made of, giving the tree
 * builder (parse-html.ts) exactly the callbacks htmlparser2's `Tokenizer`
 * gives it (HTML mode, entities left alone, `/>` recognized, only
 * script and style raw — the builder's `isInForeignContext`).
 *
 * Why: the Tokenizer looks at every character through a state switch and
 * calls back through an interface; here the text between tags, attribute
 * values, comments and script bodies are found with `indexOf`. On the
 * listing benchmark the Tokenizer took ~30 % of parse + extract
 * (docs/performance.md, issue 26).
 *
 * It covers text, start tags with attributes (quoted, unquoted, valueless),
 * `/>`, end tags, `<!-- -->` comments, `<!DOCTYPE …>`, `<?…>` and
 * script/style bodies. On anything else — `<![CDATA[`, other `<!…>`, `</` not
 * followed by a letter, a `/` inside a tag that does not end it, input that
 * ends inside markup — `lexHtml` returns false, and the caller starts over
 * with htmlparser2's Tokenizer, which handles all of it. The callbacks made
 * before that point are to be thrown away with the builder. A page holding
 * C0 control characters is never given here (the Tokenizer compares
 * characters with `c | 0x20`, which makes some controls match `<`, `/` or
 * `>`); the caller checks. spec/dom/html-lexer.spec.ts compares the two
 * lexers' callbacks on pages and on generated markup.
 */

/** The part of htmlparser2's TokenizerCallbacks the fast path calls. Text may be split anywhere: the builder joins it. */
export interface HtmlLexerCallbacks {
  ontext(start: number, end: number): void;
  onopentagname(start: number, end: number): void;
  onattribname(start: number, end: number): void;
  onattribdata(start: number, end: number): void;
  /** quote: 0 no value, 1 unquoted, 2 single, 3 double (htmlparser2's QuoteType). */
  onattribend(quote: number, end: number): void;
  onopentagend(end: number): void;
  onselfclosingtag(end: number): void;
  onclosetag(start: number, end: number): void;
  oncomment(start: number, end: number, offset: number): void;
  ondeclaration(start: number, end: number): void;
  onend(): void;
}

const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;
const BANG = 0x21;
const DASH = 0x2d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}
function isEndOfTagSection(c: number): boolean {
  return c === SLASH || c === GT || isWhitespace(c);
}
function isAsciiAlpha(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/** `script` or `style`, in any case, from `start` to `end`: their bodies are raw text. */
function rawTextEnd(src: string, start: number, end: number): string | null {
  const length = end - start;
  if (length !== 6 && length !== 5) return null;
  const name = src.slice(start, end).toLowerCase();
  return name === 'script' ? '</script' : name === 'style' ? '</style' : null;
}

/**
 * Lexes `src`, calling `cbs` as htmlparser2's Tokenizer would, and returns
 * true; or returns false at the first construct it leaves to the Tokenizer.
 */
export function lexHtml(src: string, cbs: HtmlLexerCallbacks): boolean {
  const n = src.length;
  let text = 0; // start of the text not yet reported
  let p = 0; // where to look for the next `<`
  while (true) {
    const lt = src.indexOf('<', p);
    if (lt === -1 || lt + 1 >= n) break; // a `<` at the very end is text too
    const c = src.charCodeAt(lt + 1);
    if (isAsciiAlpha(c)) {
      if (lt > text) cbs.ontext(text, lt);
      const after = startTag(src, lt + 1, cbs);
      if (after < 0) return false;
      text = p = after;
    } else if (c === SLASH) {
      if (lt > text) cbs.ontext(text, lt);
      const after = endTag(src, lt + 2, cbs);
      if (after < 0) return false;
      text = p = after;
    } else if (c === BANG) {
      if (lt > text) cbs.ontext(text, lt);
      const after = declaration(src, lt + 2, cbs);
      if (after < 0) return false;
      text = p = after;
    } else if (c === 0x3f /* ? */) {
      // `<?xml …?>` atop XHTML pages: a bogus comment up to `>`, which the builder reads as a processing instruction.
      const gt = src.indexOf('>', lt + 2);
      if (gt === -1) return false;
      if (lt > text) cbs.ontext(text, lt);
      cbs.oncomment(lt + 1, gt, 0);
      text = p = gt + 1;
    } else {
      p = lt + 1; // `<` before anything else is text
    }
  }
  if (text < n) cbs.ontext(text, n);
  cbs.onend();
  return true;
}

/** From the tag name's first letter; returns where text resumes, or -1. */
function startTag(src: string, nameStart: number, cbs: HtmlLexerCallbacks): number {
  const n = src.length;
  let i = nameStart + 1;
  while (i < n && !isEndOfTagSection(src.charCodeAt(i))) i++;
  if (i >= n) return -1;
  // The Tokenizer asks isInForeignContext only for names starting with `s`; only script and style stay raw.
  const rawEnd = (src.charCodeAt(nameStart) | 0x20) === 0x73 ? rawTextEnd(src, nameStart, i) : null;
  cbs.onopentagname(nameStart, i);
  for (;;) {
    if (i >= n) return -1;
    const c = src.charCodeAt(i);
    if (c === GT) {
      cbs.onopentagend(i);
      return rawEnd === null ? i + 1 : rawText(src, i + 1, rawEnd, cbs);
    }
    if (c === SLASH) {
      if (i + 1 < n && src.charCodeAt(i + 1) === GT) {
        cbs.onselfclosingtag(i + 1);
        return i + 2;
      }
      return -1;
    }
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    i = attribute(src, i, cbs);
    if (i < 0) return -1;
  }
}

/** From an attribute name's first character (checked by no rule, as in the Tokenizer); returns where the tag goes on, or -1. */
function attribute(src: string, nameStart: number, cbs: HtmlLexerCallbacks): number {
  const n = src.length;
  let i = nameStart + 1;
  let c = 0;
  while (i < n && (c = src.charCodeAt(i)) !== EQ && !isEndOfTagSection(c)) i++;
  if (i >= n) return -1;
  cbs.onattribname(nameStart, i);
  const nameEnd = i;
  while (isWhitespace(c)) {
    if (++i >= n) return -1;
    c = src.charCodeAt(i);
  }
  if (c !== EQ) {
    cbs.onattribend(0, nameEnd);
    return i; // `/`, `>` or the next attribute's name
  }
  do {
    if (++i >= n) return -1;
    c = src.charCodeAt(i);
  } while (isWhitespace(c));
  if (c === DQUOTE || c === SQUOTE) {
    const close = src.indexOf(c === DQUOTE ? '"' : "'", i + 1);
    if (close === -1) return -1;
    cbs.onattribdata(i + 1, close);
    cbs.onattribend(c === DQUOTE ? 3 : 2, close + 1);
    return close + 1;
  }
  const valueStart = i;
  while (i < n && !isWhitespace((c = src.charCodeAt(i))) && c !== GT) i++;
  if (i >= n) return -1;
  cbs.onattribdata(valueStart, i);
  cbs.onattribend(1, i);
  return i;
}

/** From after `</`; returns where text resumes, or -1. */
function endTag(src: string, nameStart: number, cbs: HtmlLexerCallbacks): number {
  const n = src.length;
  if (nameStart >= n) return -1;
  const first = src.charCodeAt(nameStart);
  if (first === GT) return nameStart + 1; // `</>` is dropped
  if (!isAsciiAlpha(first)) return -1; // a bogus comment
  let i = nameStart + 1;
  while (i < n && !isEndOfTagSection(src.charCodeAt(i))) i++;
  if (i >= n) return -1;
  cbs.onclosetag(nameStart, i);
  return closingTagRest(src, i);
}

/** After an end tag's name: everything up to `>` is skipped. */
function closingTagRest(src: string, i: number): number {
  const gt = src.charCodeAt(i) === GT ? i : src.indexOf('>', i + 1);
  return gt === -1 ? -1 : gt + 1;
}

/** A script or style body from `start`, up to `</script` or `</style` (any case) ending a tag name. */
function rawText(src: string, start: number, end: string, cbs: HtmlLexerCallbacks): number {
  const n = src.length;
  let p = start;
  for (;;) {
    const lt = src.indexOf('<', p);
    if (lt === -1) {
      if (start < n) cbs.ontext(start, n);
      return n;
    }
    let j = lt + 1;
    let k = 1;
    while (k < end.length && j < n && (src.charCodeAt(j) | 0x20) === end.charCodeAt(k)) {
      j++;
      k++;
    }
    if (j >= n) {
      if (start < n) cbs.ontext(start, n); // input ends inside what might have been the end tag: text, as in the Tokenizer
      return n;
    }
    if (k === end.length && isEndOfTagSection(src.charCodeAt(j))) {
      if (lt > start) cbs.ontext(start, lt);
      cbs.onclosetag(lt + 2, j);
      return closingTagRest(src, j);
    }
    p = j; // mismatch at j: a `<` there may start the end tag
  }
}

/** From after `<!`: a comment or a doctype; returns where text resumes, or -1 for anything else. */
function declaration(src: string, start: number, cbs: HtmlLexerCallbacks): number {
  const n = src.length;
  if (start + 1 < n && src.charCodeAt(start) === DASH && src.charCodeAt(start + 1) === DASH) return comment(src, start + 2, cbs);
  if (start + 7 < n && src.slice(start, start + 7).toLowerCase() === 'doctype') {
    const gt = src.indexOf('>', start + 7);
    if (gt === -1) return -1;
    cbs.ondeclaration(start, gt);
    return gt + 1;
  }
  return -1;
}

/**
 * From after `<!--`. The Tokenizer ends a comment at `-->` or `--!>`, or
 * at once for `<!-->` and `<!--->`; those two, and comments that never
 * close, are left to it.
 */
function comment(src: string, start: number, cbs: HtmlLexerCallbacks): number {
  const n = src.length;
  if (start < n && (src.charCodeAt(start) === GT || (src.charCodeAt(start) === DASH && src.charCodeAt(start + 1) === GT))) return -1;
  let from = start;
  for (;;) {
    const dashes = src.indexOf('--', from);
    if (dashes === -1) return -1;
    let k = dashes + 2;
    while (k < n && src.charCodeAt(k) === DASH) k++; // `--->` ends the comment too
    if (k >= n) return -1;
    const c = src.charCodeAt(k);
    if (c === GT) {
      cbs.oncomment(start, k, 2);
      return k + 1;
    }
    if (c === BANG && k + 1 < n && src.charCodeAt(k + 1) === GT) {
      cbs.oncomment(start, k + 1, 3);
      return k + 2;
    }
    if (k + 1 >= n) return -1;
    from = k;
  }
}
