/**
 * seine's own version and the versions of the components it runs on, read
 * from package.json files at run time (so a dependency upgrade shows up
 * without a rebuild). Used by `seine version -v` and by the `Versions:` line
 * logged when the CLI starts, like Scrapy's `scrapy_components_versions()`.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from './package-root.js';

function readVersion(packageJsonPath: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
    const version = (parsed as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

export const SEINE_VERSION: string = readVersion(join(PACKAGE_ROOT, 'package.json')) ?? '0.0.0';

/** The packages listed by `seine version -v`, in this order (Scrapy lists its parsing and network stack). */
export const COMPONENT_PACKAGES = ['rxjs', 'got', 'htmlparser2', 'yargs'] as const;

/**
 * Finds `<name>/package.json` the way Node's resolver walks up through
 * `node_modules` folders. Not `require.resolve('<name>/package.json')`: several
 * of these packages have an `exports` map that does not expose package.json.
 */
export function findPackageVersion(name: string, fromDir: string = PACKAGE_ROOT): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return readVersion(candidate);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `Linux-6.1.0-x86_64`: the shape of Python's `platform.platform()`, which Scrapy prints. */
export function platformDescription(): string {
  return `${os.type()}-${os.release()}-${os.machine()}`;
}

/** [name, version] pairs: seine, Node.js, the component packages, Platform. */
export function componentVersions(): Array<[string, string]> {
  const versions: Array<[string, string]> = [
    ['seine', SEINE_VERSION],
    ['Node.js', process.versions.node],
  ];
  for (const name of COMPONENT_PACKAGES) versions.push([name, findPackageVersion(name) ?? 'not installed']);
  versions.push(['Platform', platformDescription()]);
  return versions;
}
