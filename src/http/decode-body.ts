/**
 * Response body → text, in this order: a byte order mark, the encoding the
 * response was constructed with, the Content-Type charset, a
 * `<meta charset>` / `<meta http-equiv="Content-Type">` or XML declaration
 * in the first 1,024 bytes, then what the bytes are (`inferredEncoding`).
 * Labels are WHATWG's (`latin1` and `iso-8859-1` mean windows-1252, `sjis`
 * means shift_jis); an unknown label is skipped, as browsers skip it.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { decodeText, encodingName } from './text-decoding.js';
import { MAX_TEXT_LENGTH } from './text-limit.js';

export { responseKind, type ResponseKind } from './response-kind.js';

function charsetOf(contentType: string | null): string | null {
  if (contentType === null) return null;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^;\s]+))/i.exec(contentType);
  if (match === null) return null;
  return encodingName(match[1] ?? match[2] ?? match[3] ?? '');
}

function bomEncoding(body: Uint8Array): [string, number] | null {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return ['utf-8', 3];
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return ['utf-16be', 2];
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return ['utf-16le', 2];
  return null;
}

const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const META = /<meta\s[^>]*>/gi;
const META_CHARSET = /charset\s*=\s*["']?\s*([^"'\s;/>]+)/i;
const XML_DECLARATION = /^<\?xml\s[^>]*?encoding\s*=\s*["']([^"']+)["']/;

/** The encoding a document declares in its first 1,024 bytes (WHATWG prescan, simplified: comments skipped, first declaration wins). */
export function declaredEncoding(body: Uint8Array): string | null {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 1024)).toString('latin1');
  const xml = XML_DECLARATION.exec(head);
  let label: string | undefined = xml?.[1];
  if (label === undefined) {
    for (const tag of head.replace(COMMENT, '').matchAll(META)) {
      const found = META_CHARSET.exec(tag[0]);
      if (found !== null) {
        label = found[1];
        break;
      }
    }
  }
  if (label === undefined) return null;
  // The prescan's fix-ups: a document that says UTF-16 in ASCII bytes is not UTF-16; x-user-defined reads as windows-1252.
  if (/^x-user-defined$/i.test(label.trim())) return 'windows-1252';
  const encoding = encodingName(label);
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding;
}

export interface DetectedEncoding {
  encoding: string;
  /** Bytes of BOM to skip before decoding. */
  bomLength: number;
}

/**
 * The encoding of a body that declares none, as Scrapy's TextResponse infers
 * it (it tries ascii, utf-8, then cp1252): UTF-8 when the bytes are UTF-8
 * with some non-ASCII, windows-1252 otherwise — also for pure ASCII, where
 * it decides how `follow()` writes a non-ASCII query (`?q=caf%E9`); browsers
 * fall back to windows-1252 too. So `Jérôme` sent in latin-1 without a
 * charset reads `Jérôme`, not `J�r�me`. Node's checks are native:
 * both together take ~12 µs on a 100 KB page. A body too long to become a
 * string (text-limit.ts) is not scanned: it is never decoded.
 */
export function inferredEncoding(body: Uint8Array): string {
  if (body.length > MAX_TEXT_LENGTH) return 'utf-8';
  return !isAscii(body) && isUtf8(body) ? 'utf-8' : 'windows-1252';
}

/** The encoding to decode `body` with; `explicit` is an encoding the response was constructed with. */
export function detectEncoding(body: Uint8Array, contentType: string | null, explicit: string | null = null): DetectedEncoding {
  const bom = bomEncoding(body);
  if (bom !== null) return { encoding: bom[0], bomLength: bom[1] };
  const encoding = (explicit === null ? null : encodingName(explicit)) ?? charsetOf(contentType) ?? declaredEncoding(body) ?? inferredEncoding(body);
  return { encoding, bomLength: 0 };
}

/** The body as text, and the WHATWG name of the encoding used. */
export function decodeBody(body: Uint8Array, contentType: string | null, explicit: string | null = null): { text: string; encoding: string } {
  const { encoding, bomLength } = detectEncoding(body, contentType, explicit);
  return { text: decodeText(body.subarray(bomLength), encoding), encoding };
}
