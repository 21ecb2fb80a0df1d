/**
 * Files that can hold secrets or crawl state are the user's alone
 * (docs/security.md, "Files"): every file seine creates for LOG_FILE, the
 * JOBDIR and the HTTP cache is 0600 and every folder it creates for them
 * 0700, whatever the umask (the mode is set again after creation, as a
 * umask can also remove the owner's bits).
 *
 * Existing files and folders: seine's own state files (the JOBDIR's, the
 * cache entries') are tightened to 0600 when seine opens them for writing;
 * folders that already exist and a LOG_FILE that already exists keep the
 * mode their owner gave them (a log shared with a group, /dev/stderr).
 *
 * A file at src/'s root, importing only node: modules, so that the log, the
 * scheduler, the extensions and the middlewares can all use it.
 */
import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { chmod, mkdir, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The mode of the files seine creates: read and write for their owner only. */
export const PRIVATE_FILE_MODE = 0o600;
/** The mode of the folders seine creates: their owner only. */
export const PRIVATE_DIR_MODE = 0o700;

/** The folders between `first` (the first one mkdir created) and `path`, both included. */
function createdFolders(first: string | undefined, path: string): string[] {
  if (first === undefined) return [];
  const folders: string[] = [];
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    folders.push(folder);
    if (folder === resolve(first) || folder === dirname(folder)) break;
  }
  return folders;
}

/** `mkdir -p` where every folder it creates is 0700; existing folders are left as they are. */
export function makePrivateDirSync(path: string): void {
  for (const folder of createdFolders(mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE }), path)) chmodSync(folder, PRIVATE_DIR_MODE);
}

/** The asynchronous makePrivateDirSync. */
export async function makePrivateDir(path: string): Promise<void> {
  for (const folder of createdFolders(await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE }), path)) await chmod(folder, PRIVATE_DIR_MODE);
}

export interface OpenPrivateOptions {
  /** Also make an existing file 0600 (seine's own state files); otherwise only a created file is. */
  tighten?: boolean;
}

/** `openSync(path, flags)` where a file created is 0600 (and an existing one too with `tighten`). */
export function openPrivateFileSync(path: string, flags: string, options: OpenPrivateOptions = {}): number {
  const existed = existsSync(path);
  const fd = openSync(path, flags, PRIVATE_FILE_MODE);
  if (!existed) {
    try {
      fchmodSync(fd, PRIVATE_FILE_MODE);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  } else if (options.tighten === true) {
    // Best effort: a file another account owns (shared through a group) cannot be changed, and is still used.
    try {
      fchmodSync(fd, PRIVATE_FILE_MODE);
    } catch {
      // kept as it is
    }
  }
  // An existing file without `tighten` (LOG_FILE=/dev/stderr, a shared log) keeps its mode.
  return fd;
}

/** Writes `data` to `path` (created or truncated), which is 0600 afterwards whatever it was. */
export function writePrivateFileSync(path: string, data: string | Uint8Array): void {
  const fd = openPrivateFileSync(path, 'w', { tighten: true });
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    closeSync(fd);
  }
}

/** The asynchronous writePrivateFileSync. */
export async function writePrivateFile(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'w', PRIVATE_FILE_MODE);
  try {
    // Best effort on a file another account owns; one seine creates is always its own.
    await handle.chmod(PRIVATE_FILE_MODE).catch(() => undefined);
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}
