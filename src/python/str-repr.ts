/**
 * Python's repr() of a str, because parsel's selector repr is defined by it.
 * (Python's float form is `pythonFloatRepr`, in float-repr.ts.)
 */

/** Characters Python's repr() escapes: everything str.isprintable() rejects, i.e. other and separator categories but the space. */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's repr() of a str. */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) out += pythonEscape(ch.codePointAt(0)!);
    else out += ch;
  }
  return out + quote;
}

function pythonEscape(code: number): string {
  if (code < 0x100) return '\\x' + code.toString(16).padStart(2, '0');
  if (code < 0x10000) return '\\u' + code.toString(16).padStart(4, '0');
  return '\\U' + code.toString(16).padStart(8, '0');
}

/** parsel's shorten(): cut to `width` characters, ending with '...'. */
export function shorten(text: string, width: number, suffix = '...'): string {
  if (text.length <= width) return text;
  if (width > suffix.length) return text.slice(0, width - suffix.length) + suffix;
  return suffix.slice(suffix.length - width);
}
