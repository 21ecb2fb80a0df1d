import { NAMED_ENTITIES } from './html-rules.generated.js';
import { isXmlChar } from './xml-chars.js';

/**
 * Decodes character references the way lxml's HTML parser (libxml2 2.9) does,
 * which differs from HTML5 and from htmlparser2's decoder: named references
 * need their `;` and come from HTML 4's list (`&amp` and `&AMP;` stay as
 * written), numeric ones may omit it (`&#233` is `é`). Observed with
 * scripts/derive-libxml2-html-rules.py.
 */
const REFERENCE = /&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*);)/g;

export function decodeHtmlEntities(raw: string): string {
  if (raw.indexOf('&') === -1) return raw;
  return raw.replace(REFERENCE, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES.get(name) ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return '';
    return String.fromCodePoint(code);
  });
}

/**
 * Text as libxml2's HTML parser stores it: like decodeHtmlEntities, but a
 * reference to a character XML does not allow (`&#1;`, `&#xFFFE;`) is
 * dropped.
 */
export function decodeHtmlText(raw: string): string {
  if (raw.indexOf('&') === -1) return raw;
  return raw.replace(REFERENCE, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES.get(name) ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    return isXmlChar(code) ? String.fromCodePoint(code) : '';
  });
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
