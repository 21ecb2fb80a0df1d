/**
 * A deployed tarball unpacked into a fresh folder, safely: every entry is
 * checked BEFORE anything is written (a plain file or folder, a relative path
 * with no `..`, within the size limits), so a hostile upload is rejected
 * whole with one line instead of half-extracted. tar's own defences (strip
 * absolute paths, refuse `..`) stay on as a second line.
 */
import { mkdir, writeFile, rm } from 'node:fs/promises';

import { t as listTar, x as extractTar } from 'tar';

export interface UnpackLimits {
  /** Total bytes of the files once unpacked. */
  readonly maxUnpackedBytes: number;
  /** Files and folders in the tarball. */
  readonly maxEntries: number;
}

export const DEFAULT_UNPACK_LIMITS: UnpackLimits = { maxUnpackedBytes: 200 * 1024 * 1024, maxEntries: 20_000 };

const ALLOWED_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/** Why an entry may not be unpacked, or null when it may. */
export function unsafeEntryReason(path: string, type: string): string | null {
  if (path.includes('\0')) return `the tarball holds a path with a NUL byte`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\')) return `the tarball holds the absolute path '${path}'`;
  if (path.split(/[\\/]/).includes('..')) return `the tarball holds '${path}', a path outside its folder`;
  if (!ALLOWED_TYPES.has(type)) return `the tarball holds '${path}' of type ${type}; only files and folders are unpacked`;
  return null;
}

/** Checks every entry of `tarball`, then unpacks it into `dir` (created). Rejects with a one-line Error. */
export async function unpackTarball(tarball: Buffer, dir: string, limits: UnpackLimits = DEFAULT_UNPACK_LIMITS): Promise<void> {
  await mkdir(dir, { recursive: true });
  // tar reads a file more simply than a Buffer; the copy lives next to the folder and goes with it.
  const file = `${dir}.tgz`;
  await writeFile(file, tarball);
  try {
    let entries = 0;
    let bytes = 0;
    let problem: string | null = null;
    try {
      await listTar({
        file,
        strict: true,
        onReadEntry(entry) {
          entries += 1;
          bytes += entry.size ?? 0;
          problem ??= unsafeEntryReason(entry.path, entry.type);
          if (problem === null && entries > limits.maxEntries) problem = `the tarball holds more than ${limits.maxEntries} entries`;
          if (problem === null && bytes > limits.maxUnpackedBytes) problem = `the tarball unpacks to more than ${limits.maxUnpackedBytes} bytes`;
          entry.resume();
        },
      });
    } catch (error) {
      throw new Error(`the upload is not a .tar.gz made by seine deploy (${(error as Error).message})`);
    }
    if (problem !== null) throw new Error(`${problem}: deploy with \`seine deploy\`, which packs only the project's own files`);
    if (entries === 0) throw new Error('the tarball is empty: deploy with `seine deploy`');
    await extractTar({ file, cwd: dir, strict: true, preservePaths: false, filter: (path, entry) => unsafeEntryReason(path, 'type' in entry ? entry.type : 'File') === null });
  } finally {
    await rm(file, { force: true });
  }
}

