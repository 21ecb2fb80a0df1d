/** Text → bytes in legacy encodings; expected bytes printed by Python's codecs. */
import { describe, expect, it } from '@jest/globals';
import { UnencodableError, encodeBinary } from '../../../src/http/url/encode-text.js';

const hex = (binary: string): string => Buffer.from(binary, 'latin1').toString('hex');

describe('encodeBinary', () => {
  it.each([
    ['日本', 'shift_jis', '93fa967b'],
    ['中文', 'gbk', 'd6d0cec4'],
    ['中文', 'big5', 'a4a4a4e5'],
    ['한국어', 'euc-kr', 'c7d1b1b9beee'],
    ['日本', 'euc-jp', 'c6fccbdc'],
    ['café €', 'windows-1252', '636166e92080'],
    ['café', 'latin1', '636166e9'],
    ['é', 'utf-8', 'c3a9'],
    ['é', 'utf-16le', 'e900'],
    ['plain', 'shift_jis', '706c61696e'],
  ])('writes %s in %s', (text, encoding, bytes) => {
    expect(hex(encodeBinary(text, encoding))).toBe(bytes);
  });

  it('refuses a character the encoding has no bytes for, naming both', () => {
    expect(() => encodeBinary('q=日', 'windows-1252')).toThrow(new UnencodableError('日', 'windows-1252'));
    expect(() => encodeBinary('q=日', 'windows-1252')).toThrow("'windows-1252' codec can't encode character '日'");
  });
});
