import { constants } from 'node:buffer';
import { TextTooLargeError } from './http-errors.js';

/** V8's longest string, in UTF-16 code units (2^29 - 24 on 64-bit Node 20: 536,870,888). */
export const MAX_TEXT_LENGTH = constants.MAX_STRING_LENGTH;

/**
 * Throws TextTooLargeError when `byteLength` bytes in `encoding` could
 * decode to more characters than V8's longest string. The bound is the
 * worst case (one character per byte, per two bytes in UTF-16), so no body
 * is decoded only to fail at the end; a UTF-8 body of multi-byte characters
 * just over the limit is refused although it might have fitted.
 */
export function assertDecodable(url: string, byteLength: number, encoding: string): void {
  const chars = encoding === 'utf-16le' || encoding === 'utf-16be' ? Math.ceil(byteLength / 2) : byteLength;
  if (chars > MAX_TEXT_LENGTH) throw new TextTooLargeError(url, byteLength, encoding, MAX_TEXT_LENGTH);
}
