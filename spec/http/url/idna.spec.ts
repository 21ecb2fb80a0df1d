/** Python's `str.encode('idna')`; expected values printed by /usr/bin/python3. */
import { describe, expect, it } from '@jest/globals';
import { idnaEncode, punycodeEncode } from '../../../src/http/url/idna.js';

describe('idnaEncode', () => {
  it.each([
    ['Bücher.Example', 'xn--bcher-kva.Example'],
    ['éxample.com', 'xn--xample-9ua.com'],
    ['ｅｘａｍｐｌｅ.com', 'example.com'],
    ['ex\u00adample.com', 'example.com'],
    ['☃.net', 'xn--n3h.net'],
    ['a\u3002b', 'a.b'],
    ['münchen.DE.', 'xn--mnchen-3ya.DE.'],
    ['straße.de', 'strasse.de'],
    ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
    ['', ''],
  ])('encodes %s as %s', (host, ascii) => {
    expect(idnaEncode(host)).toBe(ascii);
  });

  it.each(['a'.repeat(64) + '.com', 'a..b', 'ü' + 'a'.repeat(70), 'xn--ü.de'])('fails (null) where Python raises UnicodeError: %s', (host) => {
    expect(idnaEncode(host)).toBeNull();
  });

  it('encodes RFC 3492’s sample strings', () => {
    expect(punycodeEncode('bücher')).toBe('bcher-kva');
    expect(punycodeEncode('他们为什么不说中文')).toBe('ihqwcrb4cv8a8dqg056pqjye');
    expect(punycodeEncode('😀')).toBe('e28h');
  });
});
