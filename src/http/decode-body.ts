/**
 * Response body → text by the WHATWG encoding rules, with Node's built-in
 * TextDecoder (ICU; every WHATWG encoding label) as the maintained decoder:
 * a BOM wins, then the Content-Type charset, then a `<meta charset>` or XML
 * declaration in the first 1,024 bytes, then UTF-8.
 */

export type ResponseKind = 'html' | 'xml' | 'text' | 'binary';

function canonicalEncoding(label: string): string | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null; // an unknown label is ignored, as browsers ignore it
  }
}

function charsetOf(contentType: string | null): string | null {
  if (contentType === null) return null;
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match === null ? null : canonicalEncoding(match[1]!);
}

function bomEncoding(body: Buffer): [string, number] | null {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return ['utf-8', 3];
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return ['utf-16be', 2];
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return ['utf-16le', 2];
  return null;
}

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.+-]+)/i;
const XML_DECLARATION = /^<\?xml[^>]+encoding\s*=\s*["']([a-zA-Z0-9_.:-]+)["']/;

function declaredEncoding(body: Buffer): string | null {
  const head = body.subarray(0, 1024).toString('latin1');
  const match = XML_DECLARATION.exec(head) ?? META_CHARSET.exec(head);
  if (match === null) return null;
  const encoding = canonicalEncoding(match[1]!);
  // A document that says UTF-16 in ASCII bytes is not UTF-16 (WHATWG prescan rule).
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding;
}

export function detectEncoding(body: Buffer, contentType: string | null): { encoding: string; bomLength: number } {
  const bom = bomEncoding(body);
  if (bom !== null) return { encoding: bom[0], bomLength: bom[1] };
  return { encoding: charsetOf(contentType) ?? declaredEncoding(body) ?? 'utf-8', bomLength: 0 };
}

export function decodeBody(body: Buffer, contentType: string | null): { text: string; encoding: string } {
  const { encoding, bomLength } = detectEncoding(body, contentType);
  const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(body.subarray(bomLength));
  return { text, encoding };
}

const XML_TYPES = /^(?:text\/xml|application\/xml|application\/[\w.+-]*\+xml|application\/(?:rss|atom|rdf)\b)/i;
const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml|application\/vnd\.wap\.xhtml\+xml)/i;
const TEXT_TYPES = /^(?:text\/|application\/(?:json|javascript|x-javascript|ecmascript|ld\+json|x-json)\b)/i;

/** The kind of response, from Content-Type when it says, else by looking at the body (Scrapy's responsetypes). */
export function responseKind(contentType: string | null, body: Buffer, url = ''): ResponseKind {
  const mime = contentType?.split(';')[0]?.trim() ?? '';
  if (mime !== '' && mime !== 'application/octet-stream') {
    if (HTML_TYPES.test(mime)) return 'html';
    if (XML_TYPES.test(mime)) return 'xml';
    if (TEXT_TYPES.test(mime)) return 'text';
    return 'binary';
  }
  const head = body.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('<?xml')) return /<html[\s>]/.test(head) ? 'html' : 'xml';
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<(?:head|body|div|p|title)[\s>]/.test(head)) return 'html';
  if (/\.(?:xml|rss|atom)$/i.test(new URL(url, 'http://x/').pathname)) return 'xml';
  if (body.subarray(0, 1024).includes(0)) return 'binary';
  return 'text';
}
