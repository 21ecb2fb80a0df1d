/**
 * Number ↔ string conversions against lxml. The fixtures were recorded with
 * `scripts/xpath-oracle.py --record-number-fixtures` (lxml 4.9.2 / libxml2 2.9.14).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { numberToString } from '../../src/xpath/number-format.js';
import { pythonFloatRepr } from '../../src/python/float-repr.js';
import { stringToNumber } from '../../src/xpath/values.js';
import { onDocument } from './helpers/run.js';

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`fixtures/${name}`, import.meta.url)), 'utf8')) as T;
}

const NUMBER_STRINGS = fixture<[number, string, string][]>('number-strings.json');
const STRING_NUMBERS = fixture<[string, number | 'NaN' | 'Infinity' | '-Infinity' | '-0'][]>('string-numbers.json');

function decode(v: number | string): number {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  if (v === '-0') return -0;
  return v as number;
}

describe('numberToString (XPath string() of a number)', () => {
  it(`gives lxml's string for all ${NUMBER_STRINGS.length} recorded doubles`, () => {
    const wrong = NUMBER_STRINGS.filter(([v, lxml]) => numberToString(v) !== lxml).map(([v, lxml]) => [v, lxml, numberToString(v)]);
    expect(wrong).toEqual([]);
  });

  it.each([
    [0, '0'],
    [-0, '0'],
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
    [42, '42'],
    [-7, '-7'],
    [2147483647, '2.147483647e+09'],
    [2147483646, '2147483646'],
    [-2147483648, '-2.147483648e+09'],
    [1 / 3, '0.333333333333333'],
    [0.1 + 0.2, '0.3'],
    [1e20, '1e+20'],
    [123456789012, '1.23456789012e+11'],
    [0.00001, '0.00001'],
    [0.000001, '1e-06'],
    [1000000000.5, '1.0000000005e+09'],
    [999999999.5, '999999999.5'],
    // 2^-22 = 2.384185791015625e-7 sits exactly half-way at 15 digits: C rounds half to even.
    [2 ** -22, '2.38418579101562e-07'],
  ])('%p → %p', (value, expected) => {
    expect(numberToString(value)).toBe(expected);
  });
});

describe('pythonFloatRepr (how lxml hands numbers to re:* functions)', () => {
  it(`gives Python's repr for all ${NUMBER_STRINGS.length} recorded doubles`, () => {
    const wrong = NUMBER_STRINGS.filter(([v, , repr]) => pythonFloatRepr(v) !== repr).map(([v, , repr]) => [v, repr, pythonFloatRepr(v)]);
    expect(wrong).toEqual([]);
  });

  it.each([
    [1, '1.0'],
    [-0, '-0.0'],
    [0, '0.0'],
    [NaN, 'nan'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
  ])('%p → %p', (value, expected) => {
    expect(pythonFloatRepr(value)).toBe(expected);
  });
});

describe('stringToNumber (XPath number() of a string)', () => {
  it(`gives lxml's number for all ${STRING_NUMBERS.length} recorded strings, to the last bit`, () => {
    const wrong = STRING_NUMBERS.filter(([s, lxml]) => !Object.is(stringToNumber(s), decode(lxml))).map(([s, lxml]) => [
      s,
      lxml,
      stringToNumber(s),
    ]);
    expect(wrong).toEqual([]);
  });

  it.each([
    [' 12 ', 12],
    ['-', -0],
    ['', NaN],
    ['+1', NaN],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['1e', 1],
    ['Infinity', NaN],
    ['\u00a01', NaN],
  ])('%p → %p', (text, expected) => {
    expect(stringToNumber(text)).toBe(expected);
  });
});

describe('number literals in expressions', () => {
  const query = onDocument('<a/>');

  it.each([
    ['1e2', { number: 100 }],
    ['1.e2', { number: 100 }],
    ['.5e1', { number: 5 }],
    ['1E2', { number: 100 }],
    ['-0', { number: '-0' }],
    ['1 div -0', { number: '-Infinity' }],
    ['12.50', { number: 12.5 }],
    // libxml2 reads the fraction as an integer over a power of ten, so this literal becomes 0.5 and rounds up.
    ['round(0.49999999999999994)', { number: 1 }],
  ] as const)('%s is %p, as in lxml', (expr, expected) => {
    expect(query(expr)).toEqual(expected);
  });
});
