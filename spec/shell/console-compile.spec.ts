/** What the consoles make of an input line before the REPL evaluates it. */
import { describe, expect, it } from '@jest/globals';
import { runInNewContext } from 'node:vm';
import { addAwaitToFetch } from '../../src/shell/console/auto-await.js';
import { transformTypeScript } from '../../src/shell/console/ts-transform.js';

describe('transformTypeScript (the ts console)', () => {
  it('drops types, interfaces and `as`, keeping what the line evaluates to', () => {
    const compile = (source: string): string => {
      const result = transformTypeScript(source);
      if (result.kind !== 'code') throw new Error(`not compiled: ${JSON.stringify(result)}`);
      return result.code;
    };
    expect(runInNewContext(compile('const x: number = 41; x + 1'))).toBe(42);
    expect(compile('interface Quote { text: string }')).toBe('');
    expect(runInNewContext(compile('("a" as string).toUpperCase()'))).toBe('A');
    expect(runInNewContext(compile('enum Color { Red, Green } Color.Green'))).toBe(1);
  });

  it('reads `{ a: 1 }` alone as an object, as the Node REPL does', () => {
    const result = transformTypeScript('{ a: 1 }');
    expect(result.kind === 'code' && runInNewContext(result.code)).toEqual({ a: 1 });
  });

  it('asks for more lines when the input stops early', () => {
    expect(transformTypeScript('if (x) {').kind).toBe('incomplete');
    expect(transformTypeScript('function f(a: string').kind).toBe('incomplete');
    expect(transformTypeScript('const s = `abc').kind).toBe('incomplete');
  });

  it('reports a real syntax error with its position', () => {
    expect(transformTypeScript('x +* 2')).toEqual({ kind: 'error', message: 'Unexpected "*" (1:4)' });
    expect(transformTypeScript('const s = "abc').kind).toBe('error');
  });
});

describe('addAwaitToFetch (fetch finishes before the next statement)', () => {
  it.each([
    ['fetch("http://x/")', '(await fetch("http://x/"))'],
    ['fetch(u); response.status', '(await fetch(u)); response.status'],
    ['fetch(u, { redirect: false })', '(await fetch(u, { redirect: false }))'],
    ['for (const u of urls) { fetch(u) }', 'for (const u of urls) { (await fetch(u)) }'],
  ])('%s', (input, output) => {
    expect(addAwaitToFetch(input)).toBe(output);
  });

  it.each([
    ['await fetch(u)', 'already awaited'],
    ['urls.map((u) => fetch(u))', 'inside a function'],
    ['"fetch(x)"', 'inside a string'],
    ['// fetch(x)', 'inside a comment'],
    ['api.fetch(x)', 'a method of something else'],
    ['fetch(', 'incomplete input, left for the REPL'],
  ])('leaves %s alone (%s)', (input) => {
    expect(addAwaitToFetch(input)).toBe(input);
  });
});
