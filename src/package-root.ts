/**
 * Where seine's own files are: the package root (package.json, scaffold/)
 * and the modules `seine`, `seine/operators` and `seine/shell` of the copy
 * that is running. Found by walking up from this module to seine's
 * package.json rather than by a fixed relative path, because the module
 * does not sit at one place: src/ under the tests, and a chunk of the
 * bundled dist/ (scripts/build.mjs) when seine runs built.
 *
 * A file at src/'s root, importing only Node, so that every folder can use it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function findPackageRoot(from: string): string {
  for (let dir = from; ; ) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'seine') return dir;
      } catch {
        // An unreadable package.json on the way up is not seine's: go on.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`seine's package.json was not found above ${from}: reinstall seine`);
    dir = parent;
  }
}

/** The folder holding seine's package.json. */
export const PACKAGE_ROOT: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** True under the tests (and tsx), where seine runs from its TypeScript sources. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The file URL of the running copy's `seine` (''), `seine/operators` or `seine/shell` module. */
export function seineModuleUrl(subpath: '' | 'operators' | 'shell'): string {
  const folder = FROM_SOURCE ? 'src' : 'dist';
  const file = FROM_SOURCE ? 'index.ts' : 'index.js';
  return pathToFileURL(join(PACKAGE_ROOT, folder, subpath, file)).href;
}
