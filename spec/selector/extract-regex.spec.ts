/**
 * re() on multilingual text, against parsel 1.7. A pattern string reads as
 * Python's `re` reads it: `\w`, `\d`, `\s`, `\b` are Unicode (JavaScript's
 * `\w`, `\d`, `\b` are ASCII). The expected values were recorded from parsel
 * by scripts/record-regex-fixtures.py into
 * spec/fixtures/selectors/unicode-regex.json; this file needs no Python.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { extractRegex } from '../../src/selector/extract-regex.js';
import { Selector } from '../../src/selector/index.js';

interface RegexCase {
  text: string;
  pattern: string;
  /** parsel.utils.extract_regex(pattern, text): what Selector.re() returns for that text. */
  re: string[];
  /** Selector(text=`<p>${text}</p>`).css('p::text').re(pattern) / .re_first(pattern); absent for texts no page can carry. */
  selector_re?: string[];
  selector_re_first?: string | null;
}

const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/selectors/unicode-regex.json', import.meta.url)), 'utf8')) as {
  texts: Record<string, string>;
  cases: RegexCase[];
};
const text = (name: string) => fixture.texts[name]!;

describe('re() with a pattern string: Unicode classes as in parsel (Python re)', () => {
  it.each(fixture.cases.map((c) => [c.pattern, c.text, c] as const))('extract_regex(%j) on %s text', (_p, _t, c) => {
    expect(extractRegex(c.pattern, text(c.text))).toEqual(c.re);
  });

  const onPage = fixture.cases.filter((c) => c.selector_re !== undefined);
  it.each(onPage.map((c) => [c.pattern, c.text, c] as const))("css('p::text').re(%j) and reFirst() on a %s page", (_p, _t, c) => {
    const texts = new Selector({ text: `<p>${text(c.text)}</p>` }).css('p::text');
    expect(texts.re(c.pattern)).toEqual(c.selector_re);
    expect(texts.reFirst(c.pattern)).toBe(c.selector_re_first);
  });

  it("re('K\\\\w+l') on 'ningún Kühling' is parsel's ['Kühl'], not ASCII words", () => {
    const sel = new Selector({ text: '<p>ningún Kühling</p>' });
    expect(sel.css('p::text').re('K\\w+l')).toEqual(['Kühl']);
    expect(sel.css('p::text').re('\\w+')).toEqual(['ningún', 'Kühling']);
  });
});

describe('re() with a RegExp: JavaScript semantics, as the same RegExp has everywhere else', () => {
  const sel = new Selector({ text: '<p>ningún Kühling ٣٤٥</p>' });

  it('keeps \\w, \\b and \\d ASCII, as regex.test() would', () => {
    expect(sel.css('p::text').re(/\w+/)).toEqual(['ning', 'n', 'K', 'hling']);
    expect(sel.css('p::text').re(/K\w+l/)).toEqual([]);
    expect(sel.css('p::text').re(/\d+/)).toEqual([]);
  });

  it("matches parsel's answer when written with Unicode properties and the u flag", () => {
    expect(sel.css('p::text').re(/[\p{L}\p{N}_]+/u)).toEqual(['ningún', 'Kühling', '٣٤٥']);
    expect(sel.css('p::text').re(/K[\p{L}\p{N}_]+l/u)).toEqual(['Kühl']);
    expect(sel.css('p::text').re(/\p{Nd}+/u)).toEqual(['٣٤٥']);
  });
});
