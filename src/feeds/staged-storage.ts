/**
 * The local copy of a feed that is delivered when it closes: a remote feed
 * (uploaded) or a post-processed one (compressed). Items are written to a
 * file in FEED_TEMPDIR (default: the system's temporary folder), readable by
 * its owner only (0600) since it may hold what the crawl is not meant to
 * share, with the same synchronous whole-item writes as a local feed, so
 * nothing exported is lost on Ctrl-C. Its name says which feed it is:
 * `seine-feed-<pid>-<n>-<file name>`.
 *
 * A feed that cannot be finished (its exporter threw at the end, the disk
 * filled) keeps what it holds: abort() moves a file with items in it to an
 * `undelivered-…` name (undeliveredPath), which no run writes to, and tells
 * where.
 */
import { closeSync, fstatSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FeedError } from './feed-errors.js';
import { isRunning, writeAll, type FeedStorage } from './feed-storage.js';
import type { FeedStorageKind } from './feed-target.js';

let serial = 0;

export interface StagedStorage extends FeedStorage {
  /** The local file the items are in. */
  readonly stagedPath: string;
  /** Where abort() moved the items it could not deliver, if it did. */
  readonly keptPath: string | undefined;
}

/** A name in `folder` for a file seine keeps because it could not be delivered: never one an earlier run used. */
export function undeliveredPath(folder: string, fileName: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(folder, `undelivered-${stamp}-${process.pid}-${++serial}-${fileName}`);
}

/** A name for a working file of this process in `folder`, saying which feed it belongs to. */
export function workingPath(folder: string, fileName: string): string {
  return join(folder, `seine-feed-${process.pid}-${++serial}-${fileName}`);
}

const WORKING = /^seine-feed-([1-9]\d{0,9})-\d+-(.+)$/;

/**
 * The working files a killed run (kill -9, a crash) left in `folder` for
 * one of `fileNames` (file names, or patterns for names with placeholders),
 * whose process no longer runs, moved to `undelivered-…` names: they hold
 * the items that run exported, which nothing will deliver now. Only the
 * feeds this run writes are looked for: FEED_TEMPDIR is often the shared
 * system folder, where other crawls' files are none of this run's business.
 * Returns what was moved, for one WARNING each.
 */
export function keepStaleWorkingFiles(folder: string, fileNames: readonly RegExp[]): Array<{ from: string; to: string; pid: number }> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const kept: Array<{ from: string; to: string; pid: number }> = [];
  for (const name of names.sort()) {
    const match = WORKING.exec(name);
    if (match === null || !fileNames.some((fileName) => fileName.test(match[2]!))) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isRunning(pid)) continue;
    const from = join(folder, name);
    const to = undeliveredPath(folder, match[2]!);
    try {
      renameSync(from, to);
      kept.push({ from, to, pid });
    } catch {
      // another run moved it first, or it is not ours
    }
  }
  return kept;
}

export function openStagedStorage(uri: string, fileName: string, tempDir: string, kind: FeedStorageKind): StagedStorage {
  const stagedPath = workingPath(tempDir, fileName);
  let fd: number;
  try {
    fd = openSync(stagedPath, 'wx', 0o600);
  } catch (error) {
    throw new FeedError(uri, `cannot create its local copy in FEED_TEMPDIR: ${(error as Error).message}`);
  }
  const regular = fstatSync(fd).isFile();
  let size = 0;
  let keptPath: string | undefined;
  const release = (): void => {
    if (fd < 0) return;
    const closing = fd;
    fd = -1;
    closeSync(closing);
  };
  return {
    kind,
    stagedPath,
    get keptPath() {
      return keptPath;
    },
    write: (bytes) => {
      writeAll(fd, bytes, uri, regular ? size : null);
      size += bytes.length;
    },
    size: () => size,
    close: () => {
      try {
        release();
      } catch (error) {
        throw new FeedError(uri, (error as Error).message);
      }
    },
    abort: () => {
      try {
        release();
      } catch {
        // the items written are on disk whether or not the descriptor closes
      }
      try {
        if (size === 0) rmSync(stagedPath, { force: true });
        else if (keptPath === undefined) {
          keptPath = undeliveredPath(tempDir, fileName);
          renameSync(stagedPath, keptPath);
        }
      } catch {
        // left where it is, under its working name
        keptPath ??= stagedPath;
      }
    },
  };
}
