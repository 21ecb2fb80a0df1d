import { describe, expect, it } from '@jest/globals';
import { Headers } from '../../src/http/headers.js';

describe('Headers', () => {
  it('reads names case-insensitively, the first value with get() and all with getList()', () => {
    const headers = new Headers({ 'Set-Cookie': ['a=1', 'b=2'], 'Content-Type': 'text/html' });
    expect(headers.get('content-type')).toBe('text/html');
    expect(headers.get('SET-COOKIE')).toBe('a=1');
    expect(headers.getList('set-cookie')).toEqual(['a=1', 'b=2']);
    expect(headers.has('Content-type')).toBe(true);
  });

  it('answers null and an empty list for a missing name', () => {
    const headers = new Headers();
    expect([headers.get('x'), headers.getList('x'), headers.has('x'), headers.size]).toEqual([null, [], false, 0]);
  });

  it('builds from an object (numbers become strings, undefined is skipped), from pairs, and from another Headers', () => {
    expect(new Headers({ 'Content-Length': 12, 'X-Gone': undefined }).toObject()).toEqual({ 'Content-Length': '12' });
    expect(new Headers([['Accept', 'a'], ['accept', 'b']]).getList('ACCEPT')).toEqual(['a', 'b']);
    const original = new Headers({ A: '1' });
    const copy = new Headers(original);
    copy.set('A', '2');
    expect([original.get('a'), copy.get('a')]).toEqual(['1', '2']);
    expect(original.copy().get('a')).toBe('1');
  });

  it('builds from the [name, values] entries of a Headers made by another copy of seine', () => {
    const entries: Array<[string, string[]]> = [['Set-Cookie', ['a=1', 'b=2']]];
    expect(new Headers(entries).getList('set-cookie')).toEqual(['a=1', 'b=2']);
  });

  it('keeps the spelling a name was first given, whatever case later calls use', () => {
    const headers = new Headers({ 'X-Custom': 'a' });
    headers.set('x-custom', 'b');
    headers.append('X-CUSTOM', 'c');
    headers.append('accept-language', 'en');
    expect([...headers.entries()]).toEqual([['X-Custom', ['b', 'c']], ['accept-language', ['en']]]);
    expect([...headers]).toEqual([...headers.entries()]);
  });

  it('sets only missing headers with setDefault(), removes with delete() and with an empty setList()', () => {
    const headers = new Headers({ 'User-Agent': 'mine' });
    headers.setDefault('user-agent', 'default').setDefault('Accept', '*/*');
    expect(headers.toObject()).toEqual({ 'User-Agent': 'mine', Accept: '*/*' });
    headers.delete('USER-AGENT').setList('accept', []);
    expect(headers.size).toBe(0);
  });

  it('gives an HTTP client one string per name, or a list where a name repeats', () => {
    const headers = new Headers({ A: '1', 'Set-Cookie': ['x=1', 'y=2'] });
    expect(headers.toObject()).toEqual({ A: '1', 'Set-Cookie': ['x=1', 'y=2'] });
  });

  // Found by spec/fuzz/headers.spec.ts: the header was lost, and a repeated one became the object's prototype.
  it("keeps a header named '__proto__' as an own property of toObject()", () => {
    const one = new Headers([['__proto__', 'x']]).toObject();
    expect(Object.getPrototypeOf(one)).toBe(Object.prototype);
    expect(Object.entries(one)).toEqual([['__proto__', 'x']]);
    const repeated = new Headers([['__proto__', 'a'], ['__proto__', 'b']]).toObject();
    expect(Array.isArray(Object.getPrototypeOf(repeated))).toBe(false);
    expect(Object.entries(repeated)).toEqual([['__proto__', ['a', 'b']]]);
    expect(new Headers(repeated).getList('__proto__')).toEqual(['a', 'b']);
  });

  it('hands out copies of its lists', () => {
    const headers = new Headers({ A: ['1'] });
    headers.getList('a').push('2');
    [...headers.entries()][0]![1].push('3');
    expect(headers.getList('a')).toEqual(['1']);
  });
});
