/**
 * src/escape-regexp.ts: the pattern it gives matches its text literally,
 * with and without the `u` (and `v`) flag.
 */
import { describe, expect, it } from '@jest/globals';
import { escapeRegExp } from '../src/escape-regexp.js';

const SPECIAL = ['.', '*', '+', '?', '^', '$', '{', '}', '(', ')', '|', '[', ']', '\\'];
const FLAGS = ['', 'u', 'v'] as const;

describe('escapeRegExp', () => {
  describe.each(FLAGS)('flags %j', (flags) => {
    it.each(SPECIAL)('matches %s literally', (char) => {
      const regex = new RegExp(`^${escapeRegExp(char)}$`, flags);
      expect(regex.test(char)).toBe(true);
      expect(regex.test('a')).toBe(false);
      expect(regex.test('')).toBe(false);
      expect(regex.test(char + char)).toBe(false);
    });

    it('matches every special character together, and nothing else, literally', () => {
      const text = SPECIAL.join('');
      const regex = new RegExp(`^${escapeRegExp(text)}$`, flags);
      expect(regex.test(text)).toBe(true);
      expect(regex.test(`${text}x`)).toBe(false);
      expect(regex.test(text.slice(1))).toBe(false);
    });

    it('leaves - and / and ordinary text as they are, which stays a valid pattern', () => {
      const text = 'a-b/c d_e:f=g!h<i>j,k#l@m%n&o~p`q\'r"s';
      expect(escapeRegExp(text)).toBe(text);
      const regex = new RegExp(`^${escapeRegExp(text)}$`, flags);
      expect(regex.test(text)).toBe(true);
    });

    it('finds the text inside a longer one, as the callers do', () => {
      const regex = new RegExp(`<${escapeRegExp('a.b[1]')}>`, flags);
      expect(regex.test('x <a.b[1]> y')).toBe(true);
      expect(regex.test('x <aXb1> y')).toBe(false);
      expect(new RegExp(`^(.*\\.)?(${escapeRegExp('ex-ample.com')})$`, flags).test('www.ex-ample.com')).toBe(true);
      expect(new RegExp(`^(.*\\.)?(${escapeRegExp('example.com')})$`, flags).test('examplexcom')).toBe(false);
    });
  });

  it('escapes exactly the special characters', () => {
    expect(escapeRegExp('.*+?^${}()|[]\\')).toBe('\\.\\*\\+\\?\\^\\$\\{\\}\\(\\)\\|\\[\\]\\\\');
    expect(escapeRegExp('')).toBe('');
  });
});
