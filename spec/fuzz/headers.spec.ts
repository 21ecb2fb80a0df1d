/**
 * Properties of Headers (src/http/headers.ts): names are case-insensitive
 * for every HTTP token, a name keeps the spelling it was first given, values
 * keep their order, and a Headers survives every way of copying it (another
 * Headers, its entries, its toObject() form) unchanged.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Headers } from '../../src/http/headers.js';
import { anyString, configureFuzz, runs } from './fuzz-config.js';

configureFuzz({ numRuns: 300 });

// RFC 9110 token characters, plus names that are also properties of every JavaScript object.
const TCHAR = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('');
const headerName = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom(...TCHAR), minLength: 1, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('Content-Type', 'content-type', 'SET-COOKIE', 'Set-Cookie', 'X-A', 'x-a') },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '__defineGetter__') },
);
const headerValue = fc.oneof(fc.string({ maxLength: 10 }), anyString(10));
const pairs = fc.array(fc.tuple(headerName, headerValue), { maxLength: 10 });

/** A name with the case of each letter flipped as `mask` says. */
const recase = (name: string, mask: number): string =>
  [...name].map((ch, i) => ((mask >> (i % 30)) & 1 ? ch.toUpperCase() : ch.toLowerCase())).join('');

function built(list: ReadonlyArray<readonly [string, string]>): Headers {
  const headers = new Headers();
  for (const [name, value] of list) headers.append(name, value);
  return headers;
}

/** What the pairs should give: per lower-cased name, the first spelling and every value in order. */
function model(list: ReadonlyArray<readonly [string, string]>): Array<[string, string[]]> {
  const byKey = new Map<string, [string, string[]]>();
  for (const [name, value] of list) {
    const entry = byKey.get(name.toLowerCase());
    if (entry === undefined) byKey.set(name.toLowerCase(), [name, [value]]);
    else entry[1].push(value);
  }
  return [...byKey.values()];
}

describe('Headers', () => {
  it('get, getList and has ignore the case of a token name; a name keeps its first spelling; values keep their order', () => {
    fc.assert(
      fc.property(pairs, fc.nat(), (list, mask) => {
        const headers = built(list);
        expect([...headers.entries()]).toEqual(model(list));
        expect(headers.size).toBe(model(list).length);
        for (const [name, values] of model(list)) {
          const asked = recase(name, mask);
          expect(headers.has(asked)).toBe(true);
          expect(headers.get(asked)).toBe(values[0]);
          expect(headers.getList(asked)).toEqual(values);
        }
      }),
      { numRuns: runs(500) },
    );
  });

  it('round-trips through new Headers(headers), its entries, an iterable of pairs and toObject()', () => {
    fc.assert(
      fc.property(pairs, (list) => {
        const headers = built(list);
        const expected = [...headers.entries()];
        expect([...new Headers(headers).entries()]).toEqual(expected);
        expect([...headers.copy().entries()]).toEqual(expected);
        expect([...new Headers([...headers.entries()]).entries()]).toEqual(expected);
        expect([...new Headers(list).entries()]).toEqual(expected);
        // A plain object lists integer-like keys ('3') first; the order of different names carries no meaning in HTTP.
        const byName = (a: [string, string[]], b: [string, string[]]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
        expect([...new Headers(headers.toObject()).entries()].sort(byName)).toEqual([...expected].sort(byName));
      }),
      { numRuns: runs(500) },
    );
  });

  it('set, setList, setDefault and delete act on one name only, whatever its case, and a copy is independent', () => {
    fc.assert(
      fc.property(pairs, headerName, headerValue, fc.nat(), (list, name, value, mask) => {
        const headers = built(list);
        const before = [...headers.entries()].filter(([n]) => n.toLowerCase() !== name.toLowerCase());
        const copy = headers.copy();
        headers.set(recase(name, mask), value);
        expect(headers.getList(name)).toEqual([value]);
        headers.setDefault(name, value + 'x');
        expect(headers.get(name)).toBe(value);
        headers.setList(recase(name, ~mask), []);
        expect(headers.has(name)).toBe(false);
        expect([...headers.entries()]).toEqual(before);
        expect([...copy.entries()]).toEqual([...built(list).entries()]);
        headers.append(name, value);
        headers.delete(recase(name, mask));
        expect(headers.get(name)).toBeNull();
      }),
      { numRuns: runs(500) },
    );
  });

  it('takes any string as a name or value without throwing, and gives back what it was given', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(anyString(10), anyString(10)), { maxLength: 6 }), (list) => {
        const headers = built(list);
        for (const [name, value] of list) {
          expect(headers.getList(name)).toContain(value);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});
