/**
 * Bytes → text in a WHATWG encoding, with Node's TextDecoder (ICU) and one
 * repair: Node 20.20's decoder reads windows-1252 as ISO-8859-1, so bytes
 * 0x80–0x9F come out as C1 controls instead of € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž
 * ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ (measured here: 0x80 → U+0080). windows-1252
 * is also what `latin1`, `iso-8859-1` and `ascii` labels mean on the web, so
 * this is the most common legacy encoding. The repair switches itself off
 * on a Node whose decoder is right.
 */

// WHATWG index-windows-1252 for 0x80–0x9F (the rest is ISO-8859-1).
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((code) => String.fromCharCode(code));

const NODE_DECODES_1252 = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) === '\u20ac';

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return /[\x80-\x9f]/.test(latin1) ? latin1.replace(/[\x80-\x9f]/g, (ch) => WINDOWS_1252_HIGH[ch.charCodeAt(0) - 0x80]!) : latin1;
}

// Every `follow()` passes the page's encoding to its Request: constructing a TextDecoder to read a label
// cost ~1.5 µs a link, the cache ~0.02 µs.
const names = new Map<string, string | null>([['utf-8', 'utf-8']]);

/** The WHATWG name for an encoding label (`latin1` → `windows-1252`, `sjis` → `shift_jis`), or null when unknown or unsupported. */
export function encodingName(label: string): string | null {
  let name = names.get(label);
  if (name === undefined) {
    try {
      name = new TextDecoder(label.trim()).encoding;
    } catch {
      name = null; // unknown, or `replacement` / `x-user-defined`, which Node cannot decode
    }
    if (names.size < 1000) names.set(label, name);
  }
  return name;
}

/** `bytes` decoded with `encoding` (a WHATWG name); a BOM is not stripped here, malformed bytes become U+FFFD. */
export function decodeText(bytes: Uint8Array, encoding: string, options: { fatal?: boolean } = {}): string {
  if (encoding === 'windows-1252' && !NODE_DECODES_1252) return decodeWindows1252(bytes);
  return new TextDecoder(encoding, { ignoreBOM: true, fatal: options.fatal ?? false }).decode(bytes);
}
