/**
 * libxml2 reads an attribute name as `[A-Za-z_:.][A-Za-z0-9_:.-]*` and skips
 * from the first other character to the next blank (quotes included), where
 * it reads attributes again. htmlparser2 reads `x#y="a b"` as one attribute;
 * libxml2 keeps `x` without a value, skips `#y="a` and reads `b"` as an
 * attribute `b`. Called only for a name htmlparser2 gave that is not a valid
 * libxml2 name, so ordinary tags never come here.
 */
/** Whether source[start, end) is a whole libxml2 attribute name; a loop over char codes, as it runs for every attribute. */
export function isValidAttributeName(source: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = source.charCodeAt(i) | 0x20; // ASCII letters to lower case; '.' (0x2e), ':' (0x3a), '-' (0x2d) and digits stay
    if (c >= 0x61 && c <= 0x7a) continue;
    const raw = source.charCodeAt(i);
    if (raw === 0x5f /* _ */ || raw === 0x3a || raw === 0x2e) continue;
    if (i > start && (raw === 0x2d || (raw >= 0x30 && raw <= 0x39))) continue;
    return false;
  }
  return end > start;
}
const NAME = /[A-Za-z_:.][A-Za-z0-9_:.-]*/y;
const BLANK = /[ \t\n\r]/;

export interface LexedAttribute {
  /** As written (not lower-cased). */
  name: string;
  /** Raw (entities not decoded), or null when the attribute has no value. */
  value: string | null;
}

/**
 * The attributes libxml2 reads from an invalid name and its value as
 * htmlparser2 delimited them: the valid start of the name, then whatever the
 * value holds after its first blank.
 */
export function readBadAttribute(rawName: string, rawValue: string | null, quote: string): LexedAttribute[] {
  const out: LexedAttribute[] = [];
  NAME.lastIndex = 0;
  const head = NAME.exec(rawName);
  if (head !== null) out.push({ name: head[0], value: null });
  if (rawValue === null || quote === '') return out;
  const blank = rawValue.search(BLANK);
  if (blank === -1) return out;
  // The closing quote is part of what libxml2 reads next (`b"` is `b`, then a skipped `"`).
  lexAttributes(rawValue.slice(blank) + quote, out);
  return out;
}

/** libxml2's attribute loop (htmlParseStartTag) over `text`, which holds no `>`. */
function lexAttributes(text: string, out: LexedAttribute[]): void {
  let i = 0;
  const n = text.length;
  const skipBlanks = (): void => {
    while (i < n && BLANK.test(text[i]!)) i++;
  };
  for (skipBlanks(); i < n; skipBlanks()) {
    NAME.lastIndex = i;
    const name = NAME.exec(text);
    if (name === null) {
      while (i < n && !BLANK.test(text[i]!)) i++;
      continue;
    }
    i += name[0].length;
    skipBlanks();
    if (text[i] !== '=') {
      out.push({ name: name[0], value: null });
      continue;
    }
    i++;
    skipBlanks();
    const q = text[i];
    if (q === '"' || q === "'") {
      const close = text.indexOf(q, i + 1);
      if (close === -1) return; // the value would run on past what htmlparser2 gave: not followed
      out.push({ name: name[0], value: text.slice(i + 1, close) });
      i = close + 1;
    } else {
      const start = i;
      while (i < n && !BLANK.test(text[i]!)) i++;
      out.push({ name: name[0], value: text.slice(start, i) });
    }
  }
}
