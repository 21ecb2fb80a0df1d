/**
 * Where a feed's bytes go: a local file, written with synchronous writes so
 * that the items a page gave are on disk once its callback's synchronous run
 * ends (FeedSlot batches them; Ctrl-C or a crash loses nothing whose
 * request was done), or standard output
 * (stdout-storage.ts, a stream that waits for a slow reader). Each write is
 * whole items: a write that fails part-way (a full disk) is cut back to
 * where it began, so the file ends with the last whole item. A JSON or XML feed that overwrites is written to a temporary
 * file in the same folder (`.<name>.<pid>.seine-tmp`) and renamed over the
 * target on close: until the closing `]` is written, the old file stays
 * whole and no reader sees a truncated array. A run that is killed leaves
 * that temporary file; the next run that opens the same feed removes it once
 * the process it is named after is gone. Line formats (JSON Lines, CSV) are
 * written in place, so every complete line survives a kill.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FeedError } from './feed-errors.js';
import { isStdout } from './feed-settings.js';
import type { FeedStorageKind } from './feed-target.js';
import { openStdoutStorage, systemReason, type StdoutStorageOptions } from './stdout-storage.js';

export interface FeedStorage {
  /** Scrapy's storage class name, for the `feedexport/success_count/<name>` stat. */
  readonly kind: FeedStorageKind;
  /** The absolute path of a local file opened for appending (-o); undefined for other storages. */
  readonly appendPath?: string;
  write(bytes: Buffer): void;
  /** Stores the feed; a FeedError says why it could not (e.g. its folder was removed during the crawl). */
  close(): void;
  /** Closes without storing: a temporary file is removed and the target left as it was. Never throws. */
  abort(): void;
  /** The bytes in the file now (after close: when it was closed); 0 for standard output. */
  size(): number;
}

/**
 * Writes one item's bytes; in a regular file at `start` (its size before
 * them). A write that fails part-way there (ENOSPC, EFBIG) is cut back to
 * `start`, so no half item is left; truncating needs no free space. A FIFO
 * or a device (`start` null) is written where it stands: what its reader
 * got is beyond recall. (The descriptor is a blocking one from openSync:
 * EAGAIN cannot happen here.)
 */
export function writeAll(fd: number, bytes: Buffer, path: string, start: number | null): void {
  let offset = 0;
  try {
    // At an explicit position: after a cut-back the descriptor's own offset would leave a hole (with 'a', Linux appends anyway).
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset, start === null ? null : start + offset);
  } catch (error) {
    if (offset > 0 && start !== null) {
      try {
        ftruncateSync(fd, start);
      } catch {
        // Cutting back cannot fail on a regular file we hold open; if it did, the write's own error is the one to report.
      }
    }
    const { reason, code } = systemReason(error);
    throw new FeedError(path, reason, code);
  }
}

/** Formats that need a closing tag, so an interrupted in-place rewrite would leave a broken file. */
const CLOSED_FORMATS = new Set(['json', 'xml']);

export interface OpenStorageOptions {
  overwrite: boolean;
  format: string;
  /** Called with the warning to log when appending makes the file invalid. */
  warn: (message: string) => void;
  /** Called with the line to log when temporary files of interrupted runs were removed. */
  info?: (message: string) => void;
  /** Standard output only: its backpressure and its failures that arrive after the write. */
  stdout?: StdoutStorageOptions;
}

export function feedFilePath(uri: string): string {
  return uri.startsWith('file://') ? fileURLToPath(uri) : uri;
}

/**
 * A feed's folder must exist. Scrapy creates it; seine refuses, because a
 * typo in -o would otherwise scatter folders, and says so before crawling.
 */
export function checkFeedFolder(uri: string): void {
  if (isStdout(uri)) return;
  const folder = dirname(feedFilePath(uri));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new FeedError(uri, `the folder '${folder}' does not exist`);
}

const TEMP_SUFFIX = '.seine-tmp';

/** The temporary file a JSON/XML feed overwriting `path` is written to by process `pid`. */
export function tempFilePath(path: string, pid: number = process.pid): string {
  return join(dirname(path), `.${basename(path)}.${pid}${TEMP_SUFFIX}`);
}

/** Whether a process with this pid exists: kill(pid, 0) fails with ESRCH when none does (EPERM: it exists, someone else's). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes the temporary files a killed run left for `path`
 * (`.<name>.<pid>.seine-tmp` beside it) whose process no longer runs; a
 * live process's file (another run writing the same feed right now) is
 * left alone. Returns what was removed, with the pids.
 */
export function removeStaleTempFiles(path: string): Array<{ file: string; pid: number }> {
  const folder = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const removed: Array<{ file: string; pid: number }> = [];
  for (const name of names.sort()) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
    const digits = name.slice(prefix.length, -TEMP_SUFFIX.length);
    if (!/^[1-9]\d{0,9}$/.test(digits)) continue;
    const pid = Number(digits);
    if (pid === process.pid || isRunning(pid)) continue;
    const file = join(folder, name);
    try {
      rmSync(file);
      removed.push({ file, pid });
    } catch {
      // Gone already (another run cleaned up first) or not ours to remove: leave it.
    }
  }
  return removed;
}

function staleTempMessage(uri: string, removed: ReadonlyArray<{ file: string; pid: number }>): string {
  if (removed.length === 1) {
    return `Removed a temporary file that an interrupted run (process ${removed[0]!.pid}, no longer running) left for ${uri}: ${removed[0]!.file}`;
  }
  return `Removed ${removed.length} temporary files that interrupted runs (processes ${removed.map((r) => r.pid).join(', ')}, no longer running) left for ${uri}: ${removed.map((r) => r.file).join(', ')}`;
}

/** Why a file could not be stored at close: a removed folder is said as such rather than as ENOENT. */
function closeFailure(uri: string, folder: string, fallback: string): FeedError {
  return new FeedError(uri, existsSync(folder) ? fallback : `the folder '${folder}' was removed during the crawl`);
}

export function openStorage(uri: string, options: OpenStorageOptions): FeedStorage {
  if (isStdout(uri)) return openStdoutStorage(uri, options.stdout);
  checkFeedFolder(uri);
  const path = feedFilePath(uri);
  const removed = removeStaleTempFiles(path);
  if (removed.length > 0) options.info?.(staleTempMessage(uri, removed));
  const folder = dirname(path);
  const closed = CLOSED_FORMATS.has(options.format);
  if (!options.overwrite && closed && existsSync(path) && statSync(path).size > 0) {
    const name = options.format === 'json' ? 'JSON' : 'XML';
    options.warn(
      `Appending to a ${name} file produces invalid ${name}: ${uri} already holds a feed, and a second one will follow it. ` +
        `Use -O to overwrite it, or append to a JSON Lines feed instead (-o ${uri.replace(/\.\w+$/, '')}.jsonl)`,
    );
  }
  const target = options.overwrite && closed ? tempFilePath(path) : path;
  let fd: number;
  try {
    fd = openSync(target, options.overwrite ? 'w' : 'a');
  } catch (error) {
    throw new FeedError(uri, (error as Error).message);
  }
  // Counted, not stat'ed: with JOBDIR, size() is read at every request's acknowledgement.
  const opened = fstatSync(fd);
  let size = opened.size;
  const regular = opened.isFile();
  const release = (): void => {
    const closing = fd;
    fd = -1;
    closeSync(closing);
  };
  return {
    kind: 'FileFeedStorage',
    appendPath: options.overwrite ? undefined : resolve(path),
    write: (bytes) => {
      writeAll(fd, bytes, uri, regular ? size : null);
      size += bytes.length;
    },
    size: () => size,
    close: () => {
      if (fd < 0) return;
      let unlinked = false;
      try {
        unlinked = fstatSync(fd).nlink === 0;
      } catch {
        // fstat cannot fail on an open descriptor in practice; closing will say if something is wrong
      }
      try {
        release();
      } catch (error) {
        if (target !== path) rmSync(target, { force: true });
        throw new FeedError(uri, (error as Error).message);
      }
      if (target !== path) {
        try {
          renameSync(target, path);
        } catch (error) {
          rmSync(target, { force: true });
          throw closeFailure(uri, folder, (error as Error).message);
        }
      } else if (unlinked) {
        throw closeFailure(uri, folder, 'the file was removed during the crawl');
      }
    },
    abort: () => {
      if (fd < 0) return;
      try {
        release();
      } catch {
        // nothing more to do for a descriptor that will not close
      }
      if (target !== path) rmSync(target, { force: true });
    },
  };
}
