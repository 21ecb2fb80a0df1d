/**
 * Where a feed's bytes go: a local file or standard output, written with
 * synchronous writes so that an item handed to the feed is on disk before
 * the next one is scraped (Ctrl-C or a crash loses nothing already
 * exported). A JSON or XML feed that overwrites is written to a temporary
 * file in the same folder and renamed over the target on close: until the
 * closing `]` is written, the old file stays whole and no reader sees a
 * truncated array. Line formats (JSON Lines, CSV) are written in place, so
 * every complete line survives a kill.
 */
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FeedError } from './feed-errors.js';
import { isStdout } from './feed-settings.js';

export interface FeedStorage {
  /** Scrapy's storage class name, for the `feedexport/success_count/<name>` stat. */
  readonly kind: 'FileFeedStorage' | 'StdoutFeedStorage';
  write(bytes: Buffer): void;
  close(): void;
  /** Closes without storing: a temporary file is removed and the target left as it was. */
  abort(): void;
}

function writeAll(fd: number, bytes: Buffer, path: string): void {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      // A pipe that is full (stdout to a slow reader) says EAGAIN; try again rather than lose the item.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw new FeedError(path, (error as Error).message);
    }
  }
}

/** Formats that need a closing tag, so an interrupted in-place rewrite would leave a broken file. */
const CLOSED_FORMATS = new Set(['json', 'xml']);

export interface OpenStorageOptions {
  overwrite: boolean;
  format: string;
  /** Called with the warning to log when appending makes the file invalid. */
  warn: (message: string) => void;
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

export function openStorage(uri: string, options: OpenStorageOptions): FeedStorage {
  if (isStdout(uri)) {
    return { kind: 'StdoutFeedStorage', write: (bytes) => writeAll(1, bytes, uri), close: () => undefined, abort: () => undefined };
  }
  checkFeedFolder(uri);
  const path = feedFilePath(uri);
  const folder = dirname(path);
  const closed = CLOSED_FORMATS.has(options.format);
  if (!options.overwrite && closed && existsSync(path) && statSync(path).size > 0) {
    const name = options.format === 'json' ? 'JSON' : 'XML';
    options.warn(
      `Appending to a ${name} file produces invalid ${name}: ${uri} already holds a feed, and a second one will follow it. ` +
        `Use -O to overwrite it, or append to a JSON Lines feed instead (-o ${uri.replace(/\.\w+$/, '')}.jsonl)`,
    );
  }
  const target = options.overwrite && closed ? join(folder, `.${basename(path)}.${process.pid}.seine-tmp`) : path;
  let fd: number;
  try {
    fd = openSync(target, options.overwrite ? 'w' : 'a');
  } catch (error) {
    throw new FeedError(uri, (error as Error).message);
  }
  return {
    kind: 'FileFeedStorage',
    write: (bytes) => writeAll(fd, bytes, uri),
    close: () => {
      if (fd < 0) return;
      closeSync(fd);
      fd = -1;
      if (target !== path) renameSync(target, path);
    },
    abort: () => {
      if (fd < 0) return;
      closeSync(fd);
      fd = -1;
      if (target !== path) rmSync(target, { force: true });
    },
  };
}
