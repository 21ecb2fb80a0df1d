import { describe, expect, it } from '@jest/globals';
import { parseSeries, pythonInt } from '../../src/css/nth-series.js';
import type { Token } from '../../src/css/tokenizer.js';

function tokens(...values: string[]): Token[] {
  return values.map((value, pos) => ({ type: /^[+-]?[0-9]/.test(value) ? 'NUMBER' : 'IDENT', value, pos }));
}

describe('pythonInt', () => {
  it.each([
    ['12', 12n],
    ['+7', 7n],
    ['-0', 0n],
    ['007', 7n],
    ['1_000', 1000n],
    [' 3\u3000', 3n],
    ['١٢', 12n],
    ['𝟗', 9n],
    ['99999999999999999999', 99999999999999999999n],
  ])('reads %j as Python int() does', (text, value) => {
    expect(pythonInt(text)).toBe(value);
  });

  it.each(['', '1.5', '_1', '1__0', '1_', '- 1', '+-1', '0x10', '²', 'n'])('rejects %j as Python int() does', (text) => {
    expect(pythonInt(text)).toBeNull();
  });

  it('rejects more than 4300 digits, like CPython 3.11', () => {
    expect(pythonInt('1'.repeat(4300))).toBe(BigInt('1'.repeat(4300)));
    expect(pythonInt('1'.repeat(4301))).toBeNull();
  });
});

describe('parseSeries', () => {
  it.each([
    [['odd'], [2n, 1n]],
    [['even'], [2n, 0n]],
    [['n'], [1n, 0n]],
    [['-n', '+3'], [-1n, 3n]],
    [['2', 'n', '+1'], [2n, 1n]],
    [['2', 'n-1'], [2n, -1n]],
    [['+', '5'], [0n, 5n]],
    [['-', 'n', '+2'], [-1n, 2n]],
  ] as const)('reads %j as [a, b]', (values, expected) => {
    expect(parseSeries(tokens(...values))).toEqual(expected);
  });

  it('rejects string arguments and upper-case N', () => {
    expect(parseSeries([{ type: 'STRING', value: '2', pos: 0 }])).toBeNull();
    expect(parseSeries(tokens('2', 'N'))).toBeNull();
  });
});
