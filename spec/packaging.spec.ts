/**
 * What `npm pack` puts in seine's tarball, and what installing it pulls in:
 * the built dist/, the bin and the templates, no tests, benchmarks or
 * sources, and only packages that seine loads at run time (a tarball install
 * never installs devDependencies, and never builds). Installing the tarball
 * itself needs the registry and ~10 s: measured by hand, docs/dependencies.md
 * ("Installing seine").
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, ensureBuilt } from './cli/fixtures/run-seine.js';

interface PackedFile {
  path: string;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
let files: string[];

beforeAll(async () => {
  expect(await ensureBuilt()).toBe(true);
  // --ignore-scripts: `prepare` would rebuild dist/, which ensureBuilt has just checked.
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, timeout: 60_000 });
  files = (JSON.parse(stdout) as [{ files: PackedFile[] }])[0].files.map((file) => file.path);
}, 120_000);

/** Every .ts file under src/, for the search of which packages seine's code loads. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('the npm package', () => {
  it("holds the binary, the entry points of package.json's exports with their declarations, and the templates", () => {
    for (const path of [
      'package.json',
      'README.md',
      'bin/seine.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/operators/index.js',
      'dist/operators/index.d.ts',
      'dist/shell/index.js',
      'dist/shell/index.d.ts',
      'dist/cli/main.js',
      'dist/cli/quick-answer.js',
      'dist/extensions/heap-targets.js',
      'dist/dashboard/assets/dashboard.html',
      'dist/dashboard/assets/dashboard.js',
      'dist/dashboard/assets/dashboard.css',
      'dist/dashboard/assets/service.html',
      'dist/dashboard/assets/service.js',
      'scaffold/project/package.json.tmpl',
      'scaffold/spiders/basic.ts.tmpl',
    ]) {
      expect(files).toContain(path);
    }
  });

  it('holds no tests, benchmarks, build scripts, CI files or TypeScript sources (the source maps carry their text)', () => {
    expect(files.filter((path) => /^(spec|bench|scripts|src|node_modules|\.ci|\.github|dist-check)\//.test(path) || /\.(spec|check)\.|^tsconfig|^jest\./.test(path))).toEqual([]);
    expect(files.filter((path) => !/^(dist|bin|scaffold)\//.test(path)).sort()).toEqual(['README.md', 'package.json']);
    // Stack traces and debuggers need no src/: esbuild wrote each source's text into the map.
    const map = JSON.parse(readFileSync(join(ROOT, 'dist', 'index.js.map'), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
    expect(map.sourcesContent?.length).toBe(map.sources.length);
    expect(map.sourcesContent?.every((text) => typeof text === 'string' && text.length > 0)).toBe(true);
  });

  it('depends only on packages that seine loads at run time; the compiler, types and test tools are devDependencies', () => {
    const code = sources(join(ROOT, 'src')).map((file) => readFileSync(file, 'utf8')).join('\n');
    const unused = Object.keys(manifest.dependencies).filter((name) => !new RegExp(`['"]${name}(/[^'"]*)?['"]`).test(code));
    expect(unused).toEqual([]);
    for (const name of Object.keys(manifest.dependencies)) {
      expect(name).not.toMatch(/^(typescript|@types\/|jest|@jest\/|@swc\/|fast-check|linkedom|xpath)/);
    }
    expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['typescript', 'jest', '@swc/core', '@types/node']));
  });
});
