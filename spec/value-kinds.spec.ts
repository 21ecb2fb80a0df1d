/** The kind checks answer the same for values made in another realm (a vm context, as the shell's console is). */
import { describe, expect, it } from '@jest/globals';
import { runInNewContext } from 'node:vm';
import { isBytes, isDate, isError, isMap, isPlainObject, isRegExp, isSet } from '../src/value-kinds.js';

const foreign = (code: string): unknown => runInNewContext(code);

describe('value kinds across realms', () => {
  it('recognises RegExps, Dates, Maps, Sets, typed arrays and Errors made in a vm context', () => {
    expect(foreign('/\\d+/') instanceof RegExp).toBe(false); // the reason for these checks
    expect(isRegExp(foreign('/\\d+/'))).toBe(true);
    expect(isDate(foreign('new Date(0)'))).toBe(true);
    expect(isMap(foreign('new Map()'))).toBe(true);
    expect(isSet(foreign('new Set()'))).toBe(true);
    expect(isBytes(foreign('new Uint8Array(2)'))).toBe(true);
    expect(isError(foreign('new TypeError("x")'))).toBe(true);
    expect(isError(foreign('new (class MyError extends Error {})("x")'))).toBe(true);
  });

  it('takes plain objects of any realm, and no arrays, class instances or Maps', () => {
    expect(isPlainObject(foreign('({ a: 1 })'))).toBe(true);
    expect(isPlainObject(foreign('Object.create(null)'))).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(foreign('[1]'))).toBe(false);
    expect(isPlainObject(foreign('new Map()'))).toBe(false);
    expect(isPlainObject(foreign('new (class Item {})()'))).toBe(false);
    expect(isPlainObject(new (class Item {})())).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject('a')).toBe(false);
  });

  it('rejects look-alikes', () => {
    expect(isRegExp({ source: '\\d', flags: '', test: () => true })).toBe(false);
    expect(isDate({ getTime: () => 0 })).toBe(false);
    expect(isError({ name: 'Error', message: 'x' })).toBe(false);
  });
});
