import { describe, expect, it } from '@jest/globals';
import { Response } from '../../src/http/response.js';
import { TextTooLargeError } from '../../src/http/http-errors.js';
import { MAX_TEXT_LENGTH, assertDecodable } from '../../src/http/text-limit.js';

describe('text of a body longer than the longest string', () => {
  it('is a TextTooLargeError naming the URL and the size, not V8\'s RangeError, and `encoding` still answers', () => {
    // allocUnsafe maps pages it does not touch: this costs no memory beyond the 1 KiB written.
    const body = Buffer.allocUnsafe(MAX_TEXT_LENGTH + 1);
    body.fill(0x20, 0, 1024);
    const response = new Response({ url: 'http://a.test/bomb', headers: { 'Content-Type': 'text/html' }, body });
    expect(response.encoding).toBe('utf-8');
    let error: unknown;
    try {
      void response.text;
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TextTooLargeError);
    expect([(error as TextTooLargeError).code, (error as TextTooLargeError).message]).toEqual([
      'SEINE_TEXT_TOO_LARGE',
      `Cannot decode the body of http://a.test/bomb as text: ${MAX_TEXT_LENGTH + 1} bytes of utf-8 can make more than ${MAX_TEXT_LENGTH} characters, ` +
        'the longest string JavaScript holds; read response.body for the bytes, or lower DOWNLOAD_MAXSIZE to skip such pages',
    ]);
  });

  it('counts two bytes per character in UTF-16', () => {
    expect(() => assertDecodable('http://a.test/', MAX_TEXT_LENGTH * 2, 'utf-16le')).not.toThrow();
    expect(() => assertDecodable('http://a.test/', MAX_TEXT_LENGTH * 2 + 2, 'utf-16be')).toThrow(TextTooLargeError);
    expect(() => assertDecodable('http://a.test/', MAX_TEXT_LENGTH, 'windows-1252')).not.toThrow();
  });
});
