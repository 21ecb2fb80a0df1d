/**
 * Where the compiled copy of a user's `.ts` file is written. Node resolves
 * a package name (`import _ from 'lodash'`) from the importing file's
 * folder upward, so the copy goes under the node_modules folder the source
 * itself would resolve from: `<project>/node_modules/.cache/seine/ts/…`,
 * the place build tools keep their caches. A file with no node_modules
 * above it can import no packages but seine (which the loader maps to the
 * running copy) and Node's own, so its copy can go anywhere: the user's
 * temporary folder.
 */
import { statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

function nearestNodeModules(file: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    const candidate = join(dir, 'node_modules');
    if (statSync(candidate, { throwIfNoEntry: false })?.isDirectory()) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function userName(): string {
  try {
    return userInfo().username.replace(/[^\w.-]/g, '_');
  } catch {
    return String(process.getuid?.() ?? 'user');
  }
}

/** The temporary-folder place for `file`'s copy: its whole path under a folder of this user's. */
export function temporaryMirrorPath(file: string): string {
  return join(tmpdir(), `seine-ts-${userName()}`, file.replace(/^([A-Za-z]):/, '$1') + '.mjs');
}

/**
 * The source file a compiled copy was made from (the inverse of mirrorPath
 * and temporaryMirrorPath), or undefined for any other path: so that an
 * error Node raises in a copy can name the user's file.
 */
export function sourceOfMirror(path: string): string | undefined {
  if (!path.endsWith('.mjs')) return undefined;
  const inCache = /^(.*)[\\/]node_modules[\\/]\.cache[\\/]seine[\\/]ts[\\/](.*)\.mjs$/.exec(path);
  if (inCache !== null) return join(inCache[1]!, inCache[2]!);
  const temporary = join(tmpdir(), `seine-ts-${userName()}`);
  if (!path.startsWith(temporary + sep)) return undefined;
  const file = path.slice(temporary.length, -'.mjs'.length);
  // temporaryMirrorPath dropped a drive letter's colon (C:\x → …\C\x).
  return process.platform === 'win32' ? file.replace(/^\\([A-Za-z])\\/, '$1:\\') : file;
}

/** The compiled copy's path for the source `file` (absolute). */
export function mirrorPath(file: string): string {
  const nodeModules = nearestNodeModules(file);
  if (nodeModules === undefined) return temporaryMirrorPath(file);
  return join(nodeModules, '.cache', 'seine', 'ts', relative(dirname(nodeModules), file) + '.mjs');
}
