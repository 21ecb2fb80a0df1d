import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { summarizeProfile, type CpuProfile } from '../profile-summary.js';

// seine runs from a bundle: a profile's frames point into dist/chunks/*.js, and the summary must name the source files.
describe('the profile summary of a bundled program', () => {
  let dir: string;
  let bundle: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seine-profile-summary-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'helper.ts'), 'export function unused(): number {\n  return 1;\n}\n');
    writeFileSync(
      join(dir, 'src', 'hot.ts'),
      ['import { unused } from "./helper.js";', 'export { unused };', '', '', 'export function hotLoop(n: number): number {', '  let total = 0;', '  for (let i = 0; i < n; i++) total += i;', '  return total;', '}', ''].join('\n'),
    );
    bundle = join(dir, 'dist', 'out.js');
    await build({ entryPoints: [join(dir, 'src', 'hot.ts')], bundle: true, format: 'esm', outfile: bundle, sourcemap: 'linked', logLevel: 'silent' });
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A profile whose samples all stand in hotLoop's body, 3 ms, and 1 ms in native code. */
  function profileOfHotLoop(): CpuProfile {
    const lines = readFileSync(bundle, 'utf8').split('\n');
    const lineNumber = lines.findIndex((line) => line.includes('total += i'));
    const columnNumber = lines[lineNumber]!.indexOf('total');
    return {
      nodes: [
        { id: 1, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1 } },
        { id: 2, callFrame: { functionName: 'hotLoop', url: pathToFileURL(bundle).href, lineNumber, columnNumber } },
      ],
      startTime: 0,
      endTime: 4000,
      samples: [2, 2, 1, 2],
      timeDeltas: [1000, 1000, 1000, 1000],
    };
  }

  it('names the original file and line of a frame in a bundle with a source map', () => {
    const summary = summarizeProfile(profileOfHotLoop());
    expect(summary.totalMs).toBe(4);
    expect(summary.functions[0]).toEqual({ name: 'hotLoop src/hot.ts:7', ms: 3, share: 0.75 });
    expect(summary.files.map((row) => row.name)).toEqual(['src/hot.ts', '(native)']);
  });

  it('names the bundle itself when it has no source map', () => {
    rmSync(`${bundle}.map`);
    const summary = summarizeProfile(profileOfHotLoop());
    expect(summary.files[0]!.name).toBe('src/out.ts');
    expect(summary.functions[0]!.name).toMatch(/^hotLoop src\/out\.ts:\d+$/);
  });
});
