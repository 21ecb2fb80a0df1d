/**
 * libxml2 keeps only characters XML allows (its IS_CHAR) in text, comments,
 * processing instructions and script/style content: the C0 controls but tab,
 * LF and CR, and U+FFFE/U+FFFF, written literally or as `&#…;`, are dropped.
 * Attribute values keep them as written (docs/selectors.md, "HTML parsing").
 */
const NOT_XML_CHAR = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/;
const NOT_XML_CHARS = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g;

export function isXmlChar(code: number): boolean {
  if (code < 0x20) return code === 9 || code === 10 || code === 13;
  return code <= 0xd7ff || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

export function hasNonXmlChars(text: string): boolean {
  return NOT_XML_CHAR.test(text);
}

/** The text without the characters libxml2 drops; the same string when it has none (the usual case). */
export function dropNonXmlChars(text: string): string {
  return NOT_XML_CHAR.test(text) ? text.replace(NOT_XML_CHARS, '') : text;
}

/** lxml's serializer leaves C0 controls out of attribute values (tab, LF and CR stay). */
const C0_IN_ATTRIBUTE = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;
const C0_IN_ATTRIBUTES = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;

export function dropC0Controls(value: string): string {
  return C0_IN_ATTRIBUTE.test(value) ? value.replace(C0_IN_ATTRIBUTES, '') : value;
}
