/** Static imports typed into a console become declarations the Node REPL accepts. */
import { describe, expect, it } from '@jest/globals';
import { importsToConsole } from '../../src/shell/console/console-imports.js';

const MODULES = { 'seine/shell': 'file:///seine/dist/shell/index.js', 'seine/operators': 'file:///seine/dist/operators/index.js' };
const convert = (code: string): string => importsToConsole(code, MODULES, '/nowhere');

describe('importsToConsole', () => {
  it("takes 'seine' from the console's own seine object", () => {
    expect(convert("import { Selector, Request as R } from 'seine'")).toBe('var { Selector, Request: R } = seine;');
    expect(convert("import * as s from 'seine'")).toBe('var s = seine;');
  });

  it("takes seine's sub-paths from the running copy", () => {
    expect(convert("import { inspectResponse } from 'seine/shell'")).toBe('var { inspectResponse } = (await import("file:///seine/dist/shell/index.js"));');
  });

  it("resolves other packages from the current folder, else from seine's own dependencies", () => {
    // /nowhere has no node_modules: rxjs comes from seine's.
    expect(convert("import { take } from 'rxjs'")).toMatch(/^var \{ take \} = \(await import\("file:\/\/.*\/node_modules\/rxjs\/.*"\)\);$/);
    expect(convert("import x from 'no-such-package'")).toBe('var x = (await import("no-such-package")).default;');
    expect(convert("import 'node:os'")).toBe('(await import("node:os"));');
  });

  it('leaves code without import declarations alone', () => {
    for (const code of ['const x = 1', 'await import("rxjs")', '"import { a } from \'b\'"', 'if (x) {']) expect(convert(code)).toBe(code);
  });

  it('keeps what follows an import on the same line', () => {
    expect(convert("import { Selector } from 'seine'; new Selector({ text: '<p/>' })")).toBe("var { Selector } = seine; new Selector({ text: '<p/>' })");
  });
});
