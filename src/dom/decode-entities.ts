import { NAMED_ENTITIES } from './html-rules.generated.js';
import { isXmlChar } from './xml-chars.js';

/**
 * Decodes character references the way lxml's HTML parser (libxml2 2.9) does,
 * which differs from HTML5 and from htmlparser2's decoder: named references
 * need their `;` and come from HTML 4's list (`&amp` and `&AMP;` stay as
 * written), numeric ones may omit it (`&#233` is `é`). Observed with
 * scripts/derive-libxml2-html-rules.py.
 */
// The references decoded, as a regex: &(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*);)
// (decodeReferences below is the same thing as a loop).

export function decodeHtmlEntities(raw: string): string {
  return decodeReferences(raw, false);
}

/**
 * Text as libxml2's HTML parser stores it: like decodeHtmlEntities, but a
 * reference to a character XML does not allow (`&#1;`, `&#xFFFE;`) is
 * dropped.
 */
export function decodeHtmlText(raw: string): string {
  return decodeReferences(raw, true);
}

/** Above 0x10FFFF every reference decodes the same way (to nothing), so digits stop counting there. */
const TOO_BIG = 0x110000;

/**
 * What `raw.replace(REFERENCE, …)` computes, as a loop over the `&`s: the
 * regex with a callback per match was ~4 % of a listing page's parse
 * (docs/performance.md, issue 26). spec/dom/decode-entities.spec.ts
 * compares the two on generated text. `text` picks decodeHtmlText's rule
 * for numeric references, else decodeHtmlEntities'.
 */
function decodeReferences(raw: string, text: boolean): string {
  let amp = raw.indexOf('&');
  if (amp === -1) return raw;
  let out = '';
  let done = 0;
  while (amp !== -1) {
    let end = -1;
    let replacement = '';
    const first = raw.charCodeAt(amp + 1);
    if (first === 0x23 /* # */) {
      let k = amp + 2;
      let code = 0;
      const x = raw.charCodeAt(k);
      if (x === 0x78 || x === 0x58) {
        const digits = ++k;
        for (let d = hexDigit(raw.charCodeAt(k)); d !== -1; d = hexDigit(raw.charCodeAt(++k))) code = code < TOO_BIG ? code * 16 + d : TOO_BIG;
        if (k > digits) end = k;
      } else {
        const digits = k;
        for (let c = raw.charCodeAt(k); c >= 0x30 && c <= 0x39; c = raw.charCodeAt(++k)) code = code < TOO_BIG ? code * 10 + (c - 0x30) : TOO_BIG;
        if (k > digits) end = k;
      }
      if (end !== -1) {
        if (raw.charCodeAt(end) === 0x3b /* ; */) end++;
        if (code > 0x10ffff) code = TOO_BIG;
        replacement = text ? (isXmlChar(code) ? String.fromCodePoint(code) : '') : code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
      }
    } else if (isAsciiLetter(first)) {
      let k = amp + 2;
      while (isAsciiLetter(raw.charCodeAt(k)) || isAsciiDigit(raw.charCodeAt(k))) k++;
      if (raw.charCodeAt(k) === 0x3b /* ; */) {
        end = k + 1;
        replacement = NAMED_ENTITIES.get(raw.slice(amp + 1, k)) ?? raw.slice(amp, end);
      }
    }
    if (end === -1) {
      amp = raw.indexOf('&', amp + 1);
      continue;
    }
    out += raw.slice(done, amp) + replacement;
    done = end;
    amp = raw.indexOf('&', end);
  }
  return out + raw.slice(done);
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
function isAsciiLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}
function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * An attribute value as libxml2's HTML parser stores it: a reference to a
 * character XML does not allow (`&#1;`, `&#0;`, `&#xD800;`) ends the value
 * there (`a="x&#1;y"` is `x`).
 */
export function decodeHtmlAttribute(raw: string): string {
  if (raw.indexOf('&#') !== -1) {
    for (const match of raw.matchAll(NUMERIC_REFERENCE)) {
      const code = match[1] !== undefined ? parseInt(match[1], 16) : parseInt(match[2]!, 10);
      if (!isXmlChar(code)) return decodeHtmlEntities(raw.slice(0, match.index));
    }
  }
  return decodeHtmlEntities(raw);
}
const NUMERIC_REFERENCE = /&#(?:[xX]([0-9a-fA-F]+)|([0-9]+))/g;

const XML_PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const XML_REFERENCE = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z_][\w.-]*));/g;

/** XML: the five predefined entities and numeric references; lxml's recovering parser drops undefined ones. */
export function decodeXmlEntities(raw: string): string {
  if (raw.indexOf('&') === -1) return raw;
  return raw.replace(XML_REFERENCE, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return XML_PREDEFINED[name] ?? '';
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return whole;
    return String.fromCodePoint(code);
  });
}
