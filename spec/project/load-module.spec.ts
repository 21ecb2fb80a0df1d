/**
 * loadModule in-process: TypeScript files loaded at the same time are all
 * compiled and imported, and a module both import is one module.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule } from '../../src/project/load-module.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-load-module-'));
  for (let i = 0; i < 6; i++) {
    writeFileSync(join(dir, `m${i}.ts`), `import { shared } from './shared.js';\nexport const value: number = ${i} * 10;\nexport const same = shared;\n`);
  }
  writeFileSync(join(dir, 'shared.ts'), 'export const shared: object = {};\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadModule', () => {
  it('compiles files loaded at the same time, sharing the modules they both import', async () => {
    const loaded = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => loadModule(join(dir, `m${i}.ts`))));
    expect(loaded.map((exports) => exports.value)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(new Set(loaded.map((exports) => exports.same)).size).toBe(1);
  });
});
