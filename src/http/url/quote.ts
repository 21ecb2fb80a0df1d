/**
 * Percent-encoding as Python's `urllib.parse` does it (quote, quote_plus,
 * unquote, unquote_to_bytes), the ground w3lib's safe_url_string and
 * canonicalize_url stand on. Their exact output decides request
 * fingerprints, so these follow Python byte for byte rather than
 * `encodeURIComponent`'s rules.
 *
 * Bytes travel as "binary strings" (one char per byte, 0–255): comparing two
 * of them with `<` compares bytes, as Python's `bytes` do, and the common
 * case (an ASCII URL with nothing to change) costs one scan and no allocation.
 */

/** A table of the ASCII bytes `quote()` leaves alone (1 = keep). Python's always-safe set is in every table. */
export type SafeSet = Uint8Array;

const ALWAYS_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~';

export function safeSet(extra: string): SafeSet {
  const table = new Uint8Array(256);
  for (const ch of ALWAYS_SAFE + extra) table[ch.charCodeAt(0)] = 1;
  return table;
}

const HEX = '0123456789ABCDEF';

/** `quote_from_bytes(bytes, safe)` on a binary string. Returns the input itself when nothing needs escaping. */
export function quoteBinary(bytes: string, safe: SafeSet): string {
  const n = bytes.length;
  let i = 0;
  while (i < n && safe[bytes.charCodeAt(i)] === 1) i++;
  if (i === n) return bytes;
  let out = bytes.slice(0, i);
  for (; i < n; i++) {
    const b = bytes.charCodeAt(i);
    out += safe[b] === 1 ? bytes[i] : '%' + HEX[b >> 4] + HEX[b & 15];
  }
  return out;
}

/** `quote_plus(bytes, safe='')`: spaces become `+`, everything but the always-safe set is escaped. */
export function quotePlusBinary(bytes: string, safe: SafeSet): string {
  const n = bytes.length;
  let i = 0;
  while (i < n && safe[bytes.charCodeAt(i)] === 1) i++;
  if (i === n) return bytes;
  let out = bytes.slice(0, i);
  for (; i < n; i++) {
    const b = bytes.charCodeAt(i);
    if (safe[b] === 1) out += bytes[i];
    else if (b === 0x20) out += '+';
    else out += '%' + HEX[b >> 4] + HEX[b & 15];
  }
  return out;
}

/** True when every char is ASCII (so the string is already its own UTF-8 binary string). */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** UTF-8 bytes of `text` as a binary string. */
export function utf8Binary(text: string): string {
  return isAscii(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** `unquote_to_bytes(text)`: `%XX` becomes the byte, a `%` without two hex digits stays. Input is UTF-8 encoded first. */
export function unquoteToBinary(text: string): string {
  const bytes = utf8Binary(text);
  let i = bytes.indexOf('%');
  if (i < 0) return bytes;
  let out = bytes.slice(0, i);
  const n = bytes.length;
  while (i < n) {
    const ch = bytes.charCodeAt(i);
    if (ch === 0x25 && i + 2 < n) {
      const hi = hexValue(bytes.charCodeAt(i + 1));
      const lo = hexValue(bytes.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        out += String.fromCharCode(hi * 16 + lo);
        i += 3;
        continue;
      }
    }
    out += bytes[i];
    i++;
  }
  return out;
}

/** `unquote(text)`: escapes in ASCII runs are decoded as UTF-8 (invalid sequences become U+FFFD); other chars stay. */
export function unquote(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/[\x00-\x7f]+/g, (run) =>
    run.includes('%') ? Buffer.from(unquoteToBinary(run), 'latin1').toString('utf8') : run,
  );
}
