/**
 * Text → bytes in a page's encoding, for the parts of a URL that Scrapy
 * encodes with the response's encoding (query, fragment) and for string
 * bodies. Node's TextEncoder only writes UTF-8, so for the other WHATWG
 * encodings the table is TextDecoder's read backwards: single bytes, then
 * every lead/trail pair for the double-byte encodings (Shift_JIS, EUC-KR,
 * GBK, Big5, EUC-JP). Building one double-byte table decodes ~32,000 pairs
 * once (15–50 ms here, measured); only a non-ASCII URL or body in such an
 * encoding pays it.
 */
import { decodeText, encodingName } from '../text-decoding.js';

/** A character the encoding has no bytes for (Python raises UnicodeEncodeError there). */
export class UnencodableError extends Error {
  readonly character: string;
  readonly encoding: string;
  constructor(character: string, encoding: string) {
    super(`'${encoding}' codec can't encode character '${character}'`);
    this.name = 'UnencodableError';
    this.character = character;
    this.encoding = encoding;
  }
}

const DOUBLE_BYTE = new Set(['shift_jis', 'euc-kr', 'gbk', 'gb18030', 'big5', 'euc-jp']);
const tables = new Map<string, Map<string, string>>();

function reverseTable(encoding: string): Map<string, string> {
  let table = tables.get(encoding);
  if (table !== undefined) return table;
  table = new Map();
  // One non-fatal decoder reused for every candidate (creating a fatal one per call was 3× slower);
  // a sequence the encoding does not map decodes to U+FFFD and is skipped.
  const decoder = encoding === 'windows-1252' ? null : new TextDecoder(encoding);
  const tryBytes = (bytes: Uint8Array): void => {
    const text = decoder === null ? decodeText(bytes, encoding) : decoder.decode(bytes);
    // The first byte sequence found for a character wins (the canonical one for these tables).
    if (text.length > 0 && !text.includes('\ufffd') && !table!.has(text)) table!.set(text, String.fromCharCode(...bytes));
  };
  for (let b = 0; b < 0x100; b++) tryBytes(Uint8Array.of(b));
  if (DOUBLE_BYTE.has(encoding)) {
    for (let lead = 0x81; lead <= 0xfe; lead++) for (let trail = 0x40; trail <= 0xfe; trail++) tryBytes(Uint8Array.of(lead, trail));
    if (encoding === 'euc-jp') for (let a = 0xa1; a <= 0xfe; a++) for (let b = 0xa1; b <= 0xfe; b++) tryBytes(Uint8Array.of(0x8f, a, b));
  }
  tables.set(encoding, table);
  return table;
}

/** `text` encoded in `encoding` (any WHATWG label), as a binary string (one char per byte). */
export function encodeBinary(text: string, label: string): string {
  const encoding = label === 'utf-8' ? label : (encodingName(label) ?? label);
  if (/^[\x00-\x7f]*$/.test(text) && encoding !== 'utf-16le' && encoding !== 'utf-16be') return text;
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8').toString('latin1');
  if (encoding === 'utf-16le') return Buffer.from(text, 'utf16le').toString('latin1');
  if (encoding === 'utf-16be') return Buffer.from(text, 'utf16le').swap16().toString('latin1');
  const table = reverseTable(encoding);
  let out = '';
  for (const ch of text) {
    const bytes = ch.charCodeAt(0) < 0x80 ? ch : table.get(ch);
    if (bytes === undefined) throw new UnencodableError(ch, encoding);
    out += bytes;
  }
  return out;
}
