/**
 * The EXSLT regular expressions on RE2 (re2-wasm), linear in the input:
 * what goes to RE2 and what stays on RegExp, the catastrophic pattern of a
 * frozen crawl, and Python's `$` before a final newline. The recorded
 * parsel/lxml results of exslt-regexp.spec.ts and the selector fixtures run
 * on this engine by default (SEINE_REGEX_ENGINE=js runs them on RegExp).
 */
import { describe, expect, it } from '@jest/globals';
import { Selector } from '../../src/index.js';
import { GLOBAL_BUDGET, toLinear, toRe2Source } from '../../src/xpath/linear-regex.js';
import { translatePythonRegex } from '../../src/python/regex.js';

const re2 = (pattern: string): string | null => toRe2Source(translatePythonRegex(pattern).source)?.source ?? null;

describe('which patterns RE2 runs', () => {
  it.each([
    ['^a.c$', '\\Aa[^\\n]c(?:\\n?\\z)'],
    ['(?m)^a$', '(?m:^)a(?m:$)'],
    ['\\Aab\\Z', '\\Aab\\z'],
    ['(?P<year>\\d{4})-(\\d\\d)', '(?P<year>\\p{Nd}{4})-(\\p{Nd}\\p{Nd})'],
    ['caf\\u00e9', 'caf\\x{e9}'],
  ])('%s → %s', (pattern, expected) => {
    expect(re2(pattern)).toBe(expected);
  });

  it.each(['\\bword\\b', '(a)\\1', '(?P<n>a)(?P=n)', 'a(?=b)', '(?<!a)b', '[\\W]'])('%s stays on RegExp', (pattern) => {
    expect(re2(pattern)).toBeNull();
  });
});

describe('re:test, re:match and re:replace on RE2', () => {
  it('(a+)+$ on 35 a and a b, which backtracks for hours on RegExp, answers at once', () => {
    const sel = new Selector({ text: `<html><body><p>${'a'.repeat(35)}b</p><p>${'a'.repeat(100_000)}</p></body></html>` });
    const started = Date.now();
    expect(sel.xpath('//p[re:test(text(), "(a+)+$")]').length).toBe(1);
    expect(sel.xpath('re:replace(//p[1], "(a+)+$", "", "-")').get()).toBe(`${'a'.repeat(35)}b`);
    // RegExp would take hours; RE2 answers in milliseconds, plus loading its WebAssembly on the first call, which took
    // 2 s once on a busy 2-core CI run: seconds at most, not hours.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("Python's $ also matches before a final newline; re:match and re:replace keep the newline out of the match", () => {
    const sel = new Selector({ text: '<html><body><p>ab\n</p></body></html>' });
    expect(sel.xpath('re:test(//p, "b$")').get()).toBe('1');
    expect(sel.xpath('re:match(//p, "b$")/text()').getall()).toEqual(['b']);
    expect(sel.xpath('re:replace(//p, "b$", "g", "X")').get()).toBe('aX\n');
  });

  it('many matches in a long string: RE2 first, then RegExp from where it stopped, the same matches', () => {
    const t = translatePythonRegex('\\d+|x*');
    const linear = toLinear(t.source, t.flags)!;
    expect(linear).not.toBeNull();
    const text = 'ab 12 é😀 345 '.repeat(Math.ceil((2 * GLOBAL_BUDGET) / 1000 / 13));
    const fallback = new RegExp(t.source, t.flags + 'g');
    const expected = [...text.matchAll(new RegExp(t.source, t.flags + 'g'))].map((m) => [m.index, m[0]]);
    expect(linear.all(text, fallback).map((m) => [m.index, m[0]])).toEqual(expected);
  });
});
