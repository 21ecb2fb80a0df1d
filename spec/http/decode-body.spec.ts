import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { decodeBody, declaredEncoding, detectEncoding } from '../../src/http/decode-body.js';
import { decodeText, encodingName } from '../../src/http/text-decoding.js';

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

// 'café €5 “quoted” — dash' in windows-1252 (Python: .encode('cp1252')).
const CP1252 = bytes('caf\xe9 \x805 \x93quoted\x94 \x97 dash');
const SJIS_NIHONGO = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]; // 日本語

describe('decodeBody: which encoding wins', () => {
  it('uses the Content-Type charset', () => {
    expect(decodeBody(CP1252, 'text/html; charset=windows-1252')).toEqual({ text: 'café €5 “quoted” — dash', encoding: 'windows-1252' });
  });

  it('reads latin-1 and iso-8859-1 as windows-1252, as browsers do (0x80 is €, not a C1 control)', () => {
    expect(decodeBody(CP1252, 'text/html; charset=ISO-8859-1')).toEqual({ text: 'café €5 “quoted” — dash', encoding: 'windows-1252' });
    expect(decodeBody(bytes('na\xefve'), 'text/plain; charset="latin1"')).toEqual({ text: 'naïve', encoding: 'windows-1252' });
  });

  it('decodes Shift_JIS named by a <meta charset>', () => {
    const body = bytes('<html><head><meta charset="Shift_JIS"></head><body>', SJIS_NIHONGO, '</body></html>');
    expect(decodeBody(body, 'text/html')).toEqual({ text: '<html><head><meta charset="Shift_JIS"></head><body>日本語</body></html>', encoding: 'shift_jis' });
  });

  it('decodes an encoding named by <meta http-equiv="Content-Type" content="…; charset=…">', () => {
    const body = bytes('<meta http-equiv="Content-Type" content="text/html; charset=euc-kr"><p>', [0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee], '</p>');
    expect(decodeBody(body, null)).toEqual({ text: '<meta http-equiv="Content-Type" content="text/html; charset=euc-kr"><p>한국어</p>', encoding: 'euc-kr' });
  });

  it('decodes an encoding named by the XML declaration', () => {
    const body = bytes("<?xml version='1.0' encoding='Shift_JIS'?><r>", SJIS_NIHONGO, '</r>');
    expect(decodeBody(body, 'application/xml')).toEqual({ text: "<?xml version='1.0' encoding='Shift_JIS'?><r>日本語</r>", encoding: 'shift_jis' });
  });

  it('prefers the Content-Type charset to the document’s declaration', () => {
    const body = bytes('<meta charset="utf-8">', 'caf\xe9');
    expect(decodeBody(body, 'text/html; charset=windows-1252').text).toBe('<meta charset="utf-8">café');
  });

  it('prefers a byte order mark to everything', () => {
    const utf8 = bytes([0xef, 0xbb, 0xbf], Buffer.from('café', 'utf8').toString('latin1'));
    expect(decodeBody(utf8, 'text/html; charset=windows-1252')).toEqual({ text: 'café', encoding: 'utf-8' });
    expect(decodeBody(utf8, null, 'shift_jis')).toEqual({ text: 'café', encoding: 'utf-8' });
  });

  it('decodes UTF-16 with either byte order mark, and drops the mark', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>héllo</p>', 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('<p>héllo</p>', 'utf16le').swap16()]);
    expect(decodeBody(le, 'text/html')).toEqual({ text: '<p>héllo</p>', encoding: 'utf-16le' });
    expect(decodeBody(be, 'text/html')).toEqual({ text: '<p>héllo</p>', encoding: 'utf-16be' });
  });

  it('reads charset=utf-16 without a mark as little-endian', () => {
    expect(decodeBody(Buffer.from('hé', 'utf16le'), 'text/plain; charset=utf-16')).toEqual({ text: 'hé', encoding: 'utf-16le' });
  });

  it('treats a <meta> that says UTF-16 as UTF-8 (the bytes it was read from are ASCII)', () => {
    const body = Buffer.from('<meta charset="utf-16"><p>é</p>', 'utf8');
    expect(decodeBody(body, 'text/html')).toEqual({ text: '<meta charset="utf-16"><p>é</p>', encoding: 'utf-8' });
  });

  it('reads a <meta> naming x-user-defined as windows-1252', () => {
    expect(declaredEncoding(bytes('<meta charset="x-user-defined">'))).toBe('windows-1252');
  });

  it('skips unknown labels and falls through to the next source', () => {
    const body = bytes('<meta charset="shift_jis">', SJIS_NIHONGO);
    expect(decodeBody(body, 'text/html; charset=no-such-encoding')).toEqual({ text: '<meta charset="shift_jis">日本語', encoding: 'shift_jis' });
  });

  it('ignores a <meta> inside a comment and after the first 1,024 bytes', () => {
    expect(declaredEncoding(bytes('<!-- <meta charset="shift_jis"> --><meta charset="euc-kr">'))).toBe('euc-kr');
    expect(declaredEncoding(bytes('<!-- <meta charset="shift_jis"> -->'))).toBeNull();
    expect(declaredEncoding(bytes(' '.repeat(1024), '<meta charset="shift_jis">'))).toBeNull();
  });

  it('uses the encoding the response was constructed with over Content-Type and <meta>', () => {
    const body = bytes('<meta charset="utf-8">', SJIS_NIHONGO);
    expect(detectEncoding(body, 'text/html; charset=utf-8', 'sjis')).toEqual({ encoding: 'shift_jis', bomLength: 0 });
  });

});

// Recorded from Scrapy 2.8 by scripts/record-encoding-fixtures.py (HtmlResponse, TextResponse and XmlResponse agree).
const scrapy = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/http/encodings.json', import.meta.url)), 'utf8')) as {
  cases: Array<{ name: string; body: string; contentType: string | null; encoding: string; text: string }>;
};
// seine names encodings as WHATWG does; Scrapy as Python does.
const WHATWG_NAME: Record<string, string> = { cp1252: 'windows-1252', 'utf-8': 'utf-8' };

describe('decodeBody: a body with no usable charset, as Scrapy infers it (ascii, utf-8, then cp1252)', () => {
  it.each(scrapy.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(decodeBody(Buffer.from(c.body, 'hex'), c.contentType)).toEqual({ text: c.text, encoding: WHATWG_NAME[c.encoding] });
  });

  it("reads latin-1 bytes sent without a charset as windows-1252: 'Jérôme', not 'J\ufffdr\ufffdme'", () => {
    expect(decodeBody(bytes('<p>J\xe9r\xf4me caf\xe9 \xfcber</p>'), 'text/html')).toEqual({ text: '<p>Jérôme café über</p>', encoding: 'windows-1252' });
  });

  it('names pure ASCII windows-1252, as Scrapy names it cp1252', () => {
    expect(detectEncoding(bytes('<p>plain</p>'), null)).toEqual({ encoding: 'windows-1252', bomLength: 0 });
  });
});

describe('decodeBody: deliberate differences from Scrapy (docs/coming-from-scrapy.md)', () => {
  it('decodes windows-1252 bytes 0x81, 0x8D, 0x8F, 0x90, 0x9D as U+0081… as browsers do, where Scrapy gives U+FFFD', () => {
    const undefinedInCp1252 = bytes('a\x81b\x8dc\x8fd\x90e\x9df \x80');
    expect(decodeBody(undefinedInCp1252, 'text/html; charset=windows-1252').text).toBe('a\u0081b\u008dc\u008fd\u0090e\u009df €');
    expect(decodeBody(undefinedInCp1252, 'text/html; charset=iso-8859-1').text).toBe('a\u0081b\u008dc\u008fd\u0090e\u009df €');
  });

  it('keeps the latin-1 letters of an undeclared body holding one of those bytes, where Scrapy falls back to ascii and loses them all', () => {
    // Scrapy 2.8: encoding 'ascii', text 'a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf \ufffd'.
    expect(decodeBody(bytes('a\x81b\x8dc\x8fd\x90e\x9df \xe9'), null)).toEqual({ text: 'a\u0081b\u008dc\u008fd\u0090e\u009df é', encoding: 'windows-1252' });
  });
});

describe('decodeText', () => {
  it('decodes every byte 0x80–0x9F of windows-1252 as the WHATWG index says (Node 20.20 alone gets them wrong)', () => {
    const high = decodeText(Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i), 'windows-1252');
    expect(high).toBe('€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ');
  });

  it('decodes GBK and Big5', () => {
    expect(decodeText(Uint8Array.from([0xd6, 0xd0, 0xce, 0xc4]), 'gbk')).toBe('中文');
    expect(decodeText(Uint8Array.from([0xa4, 0xa4, 0xa4, 0xe5]), 'big5')).toBe('中文');
  });

  it('names encodings by WHATWG labels, null for unknown ones', () => {
    expect(encodingName(' Latin1 ')).toBe('windows-1252');
    expect(encodingName('sjis')).toBe('shift_jis');
    expect(encodingName('utf8')).toBe('utf-8');
    expect(encodingName('klingon')).toBeNull();
  });
});
