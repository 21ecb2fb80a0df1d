import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findProjectTypeScript, parseTscOutput, typeCheckProject, typeCheckReport } from '../../src/project/type-check.js';

const SEINE_ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-type-check-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder with a package.json, optionally a tsconfig.json and files. */
function folder(name: string, files: Record<string, string> = {}): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), '{"type": "module"}');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('parseTscOutput: tsc --pretty false, as TypeScript 5.x and 7 print it', () => {
  it('reads located and program-wide diagnostics; indented lines continue the one above', () => {
    const text = [
      "tutorial/spiders/quotes.ts(12,21): error TS2345: Argument of type '\"athor\"' is not assignable to parameter of type 'keyof QuoteItem'.",
      "tutorial/items.ts(3,3): error TS2322: Type '{ a: number; }' is not assignable to type 'Item'.",
      "  Property 'b' is missing in type '{ a: number; }' but required in type 'Item'.",
      "error TS18003: No inputs were found in config file '/p/tsconfig.json'.",
      '',
    ].join('\n');
    expect(parseTscOutput(text)).toEqual([
      { file: 'tutorial/spiders/quotes.ts', line: 12, column: 21, category: 'error', code: 'TS2345', message: "Argument of type '\"athor\"' is not assignable to parameter of type 'keyof QuoteItem'." },
      { file: 'tutorial/items.ts', line: 3, column: 3, category: 'error', code: 'TS2322', message: "Type '{ a: number; }' is not assignable to type 'Item'.\n  Property 'b' is missing in type '{ a: number; }' but required in type 'Item'." },
      { file: null, line: 0, column: 0, category: 'error', code: 'TS18003', message: "No inputs were found in config file '/p/tsconfig.json'." },
    ]);
    expect(parseTscOutput('')).toEqual([]);
  });
});

describe('findProjectTypeScript: the project\'s own compiler', () => {
  it('is looked up from the project folder, not from seine\'s (which has one)', () => {
    expect(findProjectTypeScript(folder('bare'))).toBeNull();
  });

  it('is the typescript package in the project\'s node_modules, started through its bin.tsc', () => {
    const root = folder('linked');
    mkdirSync(join(root, 'node_modules'));
    symlinkSync(join(SEINE_ROOT, 'node_modules', 'typescript'), join(root, 'node_modules', 'typescript'));
    const found = findProjectTypeScript(root);
    expect(found?.version).toMatch(/^\d+\.\d+\.\d+/);
    // Node resolves a linked package to where it lies, as `npx tsc` would run it.
    expect(found?.tscPath).toBe(realpathSync(join(root, 'node_modules', 'typescript', 'bin', 'tsc')));
  });
});

describe('typeCheckProject and typeCheckReport', () => {
  const root = '/home/me/tutorial';

  it('without TypeScript or without tsconfig.json: one line, and the check goes on', () => {
    expect(typeCheckReport({ kind: 'no-typescript' }, root, root)).toEqual({
      lines: ['TypeScript is not installed in this project, so its types were not checked: add it with `npm install --save-dev typescript`'],
      passed: true,
    });
    expect(typeCheckReport({ kind: 'no-tsconfig', tsconfig: `${root}/tsconfig.json` }, root, '/home/me')).toEqual({
      lines: ["No tsconfig.json in tutorial, so the project's types were not checked: `seine startproject` writes one to start from"],
      passed: true,
    });
  });

  it('errors as file:line:col from where the command runs, then the count and how to skip the type check', () => {
    const diagnostics = parseTscOutput("tutorial/spiders/quotes.ts(12,21): error TS2345: Argument of type '\"athor\"' is not assignable to parameter of type 'keyof QuoteItem'.\nerror TS5101: Option 'x' is deprecated.\n");
    const report = typeCheckReport({ kind: 'checked', version: '5.9.3', status: 2, diagnostics, output: '' }, root, `${root}/tutorial`);
    expect(report).toEqual({
      lines: [
        "spiders/quotes.ts:12:21 - error TS2345: Argument of type '\"athor\"' is not assignable to parameter of type 'keyof QuoteItem'.",
        "error TS5101: Option 'x' is deprecated.",
        'Type check failed (TypeScript 5.9.3): 2 errors; `seine check --no-typecheck` checks the contracts without it',
      ],
      passed: false,
    });
    expect(typeCheckReport({ kind: 'checked', version: '7.0.2', status: 0, diagnostics: [], output: '' }, root, root)).toEqual({ lines: ['Type check passed (TypeScript 7.0.2)'], passed: true });
  });

  it('a compiler that fails without a diagnostic (a missing native binary) is one line with its first words', async () => {
    const project = folder('broken', {
      'tsconfig.json': '{}',
      'node_modules/typescript/package.json': '{"name": "typescript", "version": "7.0.0-broken", "bin": {"tsc": "./bin/tsc"}}',
      'node_modules/typescript/bin/tsc': "console.error('Could not find the TypeScript native binary for linux-x64');\nconsole.error('    at getExePath');\nprocess.exit(3);\n",
    });
    const result = await typeCheckProject(project);
    expect(typeCheckReport(result, project, project)).toEqual({
      lines: ["The project's TypeScript compiler (TypeScript 7.0.0-broken) exited with status 3: Could not find the TypeScript native binary for linux-x64"],
      passed: false,
    });
  });

  it('runs the project\'s tsc over its tsconfig.json and finds a misspelt field', async () => {
    const project = folder('real', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', target: 'ES2022' }, include: ['src'] }),
      'src/item.ts': "interface Quote { author?: string }\nfunction add(field: keyof Quote): void { void field; }\nadd('athor');\n",
    });
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(join(SEINE_ROOT, 'node_modules', 'typescript'), join(project, 'node_modules', 'typescript'));
    const result = await typeCheckProject(project);
    expect(result.kind).toBe('checked');
    expect(typeCheckReport(result, project, project).lines[0]).toBe(`src/item.ts:3:5 - error TS2345: Argument of type '"athor"' is not assignable to parameter of type '"author"'.`);
  }, 30_000);
});
