/**
 * A deployed version's dependencies and spiders: `npm ci` in its folder
 * (preferring npm's cache, so a machine that has installed the packages
 * once installs them again without the network), then `seine list` with
 * the seine that version's lockfile pinned.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';

/** npm and `seine list` of a big project on a busy machine: minutes, not hours. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;
const LIST_TIMEOUT_MS = 2 * 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: readonly string[], cwd: string, timeout: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null;
      resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
    });
  });
}

/**
 * npm's message, in one line: the first of its `npm error` lines that is
 * not the error code, errno, syscall or path, blank, or the pointer to the
 * debug log.
 */
export function npmErrorLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .filter((line) => line.startsWith('npm error') || line.startsWith('npm ERR!'))
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim())
    .filter((line) => line !== '' && !/^(code|errno|syscall|path) \S+$/.test(line) && !line.startsWith('A complete log of this run'));
  return lines[0] ?? (stderr.trim().split('\n').at(-1) ?? 'npm failed');
}

/**
 * `seine deploy` writes the lockfile's linked folders (a `file:` dependency,
 * such as the seine a `startproject` project links) as absolute paths, since
 * npm records them relative to the lockfile and the version's folder is not
 * where the project was. npm accepts only relative ones: made relative again
 * here, to where the version is installed.
 */
export function relinkLockfile(lock: { packages?: Record<string, Record<string, unknown>> }, dir: string): boolean {
  if (lock.packages === undefined) return false;
  let changed = false;
  const packages: Record<string, Record<string, unknown>> = {};
  for (const [key, entry] of Object.entries(lock.packages)) {
    let name = key;
    if (isAbsolute(key)) {
      name = relative(dir, key);
      changed = true;
    }
    if (entry['link'] === true && typeof entry['resolved'] === 'string' && isAbsolute(entry['resolved'])) {
      entry['resolved'] = relative(dir, entry['resolved']);
      changed = true;
    }
    // A tarball dependency (`file:/path/seine-1.0.0.tgz`): npm records it as `file:` and a relative path.
    if (typeof entry['resolved'] === 'string' && entry['resolved'].startsWith('file:') && isAbsolute(entry['resolved'].slice(5))) {
      entry['resolved'] = `file:${relative(dir, entry['resolved'].slice(5))}`;
      changed = true;
    }
    packages[name] = entry;
  }
  lock.packages = packages;
  return changed;
}

export async function installDependencies(dir: string): Promise<void> {
  const lockFile = join(dir, 'package-lock.json');
  if (!existsSync(join(dir, 'package.json')) || !existsSync(lockFile)) {
    throw new Error('the tarball has no package.json and package-lock.json at its top: run `npm install` in the project, then `seine deploy`');
  }
  const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { packages?: Record<string, Record<string, unknown>> };
  if (relinkLockfile(lock, dir)) await writeFile(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  // --ignore-scripts: a `file:` dependency's `prepare` would run in the linked folder (a seine checkout
  // rebuilt by every deploy, measured); seine and its dependencies need no install script.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = await run(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir, INSTALL_TIMEOUT_MS);
  if (result.code !== 0) throw new Error(`npm ci failed: ${npmErrorLine(result.stderr)}`);
}

/** How to run the seine a version's node_modules holds. */
export function seineCommandIn(dir: string): { file: string; args: string[]; cwd: string } {
  const bin = join(dir, 'node_modules', '.bin', 'seine');
  if (!existsSync(bin)) {
    throw new Error(`${dir} has no node_modules/.bin/seine: the project's package.json must depend on seine`);
  }
  return { file: process.execPath, args: [bin], cwd: dir };
}

/** The version's spiders, by its own `seine list`. */
export async function listSpiders(dir: string): Promise<string[]> {
  const { file, args, cwd } = seineCommandIn(dir);
  const result = await run(file, [...args, 'list'], cwd, LIST_TIMEOUT_MS);
  if (result.code !== 0) {
    // The first WARNING or ERROR says why (a spider file that does not compile); the last line only that something failed.
    const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
    const line = lines.find((l) => /\b(WARNING|ERROR)\b/.test(l)) ?? lines.at(-1) ?? `exit status ${String(result.code)}`;
    throw new Error(`seine list failed in the deployed version: ${line}`);
  }
  return result.stdout.split('\n').map((line) => line.trim()).filter((line) => line !== '');
}
