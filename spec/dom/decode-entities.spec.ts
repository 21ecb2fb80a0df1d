import { describe, expect, it } from '@jest/globals';
import { decodeHtmlEntities, decodeHtmlText } from '../../src/dom/decode-entities.js';
import { NAMED_ENTITIES } from '../../src/dom/html-rules.generated.js';
import { isXmlChar } from '../../src/dom/xml-chars.js';

// The regex the decoders were written with before they became loops: the reference they must agree with.
const REFERENCE = /&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*);)/g;

function referenceDecode(raw: string, text: boolean): string {
  return raw.replace(REFERENCE, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES.get(name) ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    if (text) return isXmlChar(code) ? String.fromCodePoint(code) : '';
    if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return '';
    return String.fromCodePoint(code);
  });
}

const PIECES = ['&', '#', 'x', 'X', ';', '0', '1', '9', 'a', 'F', 'g', 'amp', 'AMP', 'nbsp', 'hearts', 'eacute', 'b2', ' ', '-', 'é',
  '&#10003;', '&#x1F600;', '&#0;', '&#1;', '&#xD800;', '&#xFFFE;', '&#1114111;', '&#1114112;', '&#99999999999999999999;', '&#x110000', '0000000'];

describe('the HTML reference decoders', () => {
  it('decode as the regex did, on 30,000 generated strings', () => {
    let a = 7;
    const next = (): number => {
      a = (a * 1103515245 + 12345) & 0x7fffffff;
      return a / 0x80000000;
    };
    for (let i = 0; i < 30_000; i++) {
      let raw = '';
      const length = Math.floor(next() * 12);
      for (let j = 0; j < length; j++) raw += PIECES[Math.floor(next() * PIECES.length)]!;
      expect([raw, decodeHtmlText(raw)]).toEqual([raw, referenceDecode(raw, true)]);
      expect([raw, decodeHtmlEntities(raw)]).toEqual([raw, referenceDecode(raw, false)]);
    }
  });

  it('follow libxml2: named references need their `;`, numeric ones do not', () => {
    expect(decodeHtmlText('a &amp b &amp; c &#233 d &#xe9; &AMP; &hearts;')).toBe('a &amp b & c é d é &AMP; ♥');
    expect(decodeHtmlText('x&#1;y&#0;z')).toBe('xyz');
    expect(decodeHtmlEntities('x&#1;y&#0;z')).toBe('x\u0001yz');
  });
});
