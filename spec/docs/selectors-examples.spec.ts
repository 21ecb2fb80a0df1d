import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import * as seine from '../../src/index.js';

/**
 * Runs the TypeScript examples of docs/selectors.md: each block is executed
 * top to bottom, and every line written `expression; // result` must give
 * that result, so the reference cannot drift from the code.
 */
const doc = readFileSync(new URL('../../docs/selectors.md', import.meta.url), 'utf8');
const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const CHECKED_LINE = /^(.*?);\s*\/\/\s*(['[\d{].*|null|true|false)$/;

function runBlock(block: string, scope: Record<string, unknown>): number {
  let checks = 0;
  let pending = '';
  for (const line of block.split('\n')) {
    if (/^import /.test(line)) continue;
    const checked = CHECKED_LINE.exec(line.trim());
    if (checked === null) {
      pending += line + '\n';
      continue;
    }
    const [, expression, literal] = checked;
    const names = Object.keys(scope);
    // Statements so far run first (declarations go into the scope), then the checked expression.
    const run = new Function(...names, `${pending}; return [${expression}, {${declared(pending).join(',')}}];`);
    const [actual, declaredNow] = run(...names.map((n) => scope[n])) as [unknown, Record<string, unknown>];
    Object.assign(scope, declaredNow);
    pending = '';
    const expected = new Function(`return (${literal});`)() as unknown;
    expect({ line: line.trim(), value: literal!.startsWith('[') ? Array.from(actual as unknown[]) : actual }).toEqual({ line: line.trim(), value: expected });
    checks++;
  }
  return checks;
}

function declared(code: string): string[] {
  return [...code.matchAll(/\bconst (\w+)\s*=/g)].map((m) => m[1]!);
}

describe('docs/selectors.md examples', () => {
  it('has examples with results to check', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });
  // Blocks read top to bottom share their variables, as a reader's session would.
  const scope: Record<string, unknown> = { ...seine };
  blocks.forEach((block, i) => {
    it(`example block ${i + 1} gives the results it shows`, () => {
      expect(runBlock(block, scope)).toBeGreaterThan(0);
    });
  });
});
