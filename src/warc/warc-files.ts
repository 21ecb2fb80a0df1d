/**
 * The WARC files of one crawl in WARC_DIR: `<spider>-<UTC timestamp>-<serial>.warc.gz`,
 * each opened new (never appended to: a resumed crawl may find a file a
 * killed run left with a torn last record), each starting with its
 * `warcinfo` record, each with its CDXJ index beside it. Records are written
 * with synchronous writes, so a record that has been written is in the
 * operating system's hands before its index line is: a SIGKILL leaves every
 * finished record readable and no index line pointing past the file's end.
 * Files are fsync'ed when they are closed (a power cut can still lose what
 * the disk had not yet been given; docs/warc.md).
 */
import { closeSync, ftruncateSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { WarcDirError } from './warc-dir-error.js';
import type { SerializedRecord } from './warc-records.js';

export interface WarcFilesOptions {
  readonly dir: string;
  /** The spider's name, the files' prefix. */
  readonly prefix: string;
  /** Bytes after which the next capture starts a new file; 0: no limit. */
  readonly maxSize: number;
  /** The `warcinfo` record of a new file. */
  readonly warcinfo: (filename: string) => Promise<SerializedRecord>;
  readonly now?: () => Date;
  /** Told of every file opened and every record written (the stats). */
  readonly onFile?: (filename: string) => void;
  readonly onRecord?: (record: SerializedRecord, length: number) => void;
}

interface OpenFile {
  readonly name: string;
  readonly fd: number;
  readonly indexFd: number;
  size: number;
  /** Records other than the warcinfo. */
  captures: number;
}

/** `20261128015143`: WARC-Date's digits to the second, as file names and CDXJ timestamps write them. */
export function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** `quotes-20261128015143-00000.cdxj` beside `quotes-20261128015143-00000.warc.gz`. */
export function indexFileName(warcName: string): string {
  return `${warcName.replace(/\.warc\.gz$/, '')}.cdxj`;
}

function safePrefix(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_') || 'spider';
}

/** Writes all of `bytes` at `position` (null: where the file's offset is). */
function writeAll(fd: number, bytes: Uint8Array, position: number | null = null): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position === null ? null : position + done);
}

/**
 * Writes a record's gzip member at `position`; a streamed one chunk by chunk
 * as warcio compresses it. Positions are explicit: after a capture is cut
 * off (ftruncate), the next one must start where the file now ends, not
 * where the descriptor's offset was left. Its length in bytes.
 */
async function writeRecord(fd: number, bytes: Uint8Array | AsyncIterable<Uint8Array>, position: number): Promise<number> {
  if (bytes instanceof Uint8Array) {
    writeAll(fd, bytes, position);
    return bytes.length;
  }
  let length = 0;
  for await (const chunk of bytes) {
    writeAll(fd, chunk, position + length);
    length += chunk.length;
  }
  return length;
}

export class WarcFiles {
  readonly #options: WarcFilesOptions;
  readonly #now: () => Date;
  #current: OpenFile | null = null;
  #serial = 0;
  /** Every file this crawl wrote, in order. */
  readonly written: string[] = [];

  constructor(options: WarcFilesOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** Creates WARC_DIR and opens the first file, so that a folder that cannot hold the archive stops the crawl before it starts. */
  async open(): Promise<void> {
    try {
      mkdirSync(this.#options.dir, { recursive: true });
    } catch (error) {
      throw new WarcDirError(this.#options.dir, (error as Error).message, { cause: error });
    }
    await this.#openNext();
  }

  /** Writes the records of one capture, together in one file (replay tools find a request beside its response). */
  async write(records: readonly SerializedRecord[]): Promise<void> {
    const size = records.reduce((sum, record) => sum + record.size, 0);
    const current = this.#current;
    if (current === null) throw new WarcDirError(this.#options.dir, 'the WARC file is closed');
    const { maxSize } = this.#options;
    if (maxSize > 0 && current.captures > 0 && current.size + size > maxSize) {
      this.#closeCurrent();
      await this.#openNext();
    }
    const file = this.#current!;
    const start = file.size;
    const lines: string[] = [];
    const written: Array<[SerializedRecord, number]> = [];
    try {
      for (const record of records) {
        const offset = file.size;
        const length = await writeRecord(file.fd, record.bytes, offset);
        file.size += length;
        written.push([record, length]);
        const line = record.index?.(offset, length, file.name) ?? '';
        if (line !== '') lines.push(line);
      }
    } catch (error) {
      // A capture that failed half-way (its body file unreadable) is cut off whole, so the next one starts at a member boundary.
      ftruncateSync(file.fd, start);
      file.size = start;
      throw error;
    }
    // Indexed once every record of the capture is written: no line points past what is on disk.
    if (lines.length > 0) writeAll(file.indexFd, Buffer.from(lines.join(''), 'utf8'));
    for (const [record, length] of written) this.#options.onRecord?.(record, length);
    file.captures += 1;
  }

  /** fsyncs and closes the open file. */
  close(): void {
    this.#closeCurrent();
  }

  async #openNext(): Promise<void> {
    const { dir, prefix } = this.#options;
    const stamp = fileTimestamp(this.#now());
    for (;;) {
      const name = `${safePrefix(prefix)}-${stamp}-${String(this.#serial).padStart(5, '0')}.warc.gz`;
      this.#serial += 1;
      let fd: number;
      try {
        // 'wx': a name already taken (a run in the same second, a resumed crawl) is never written into.
        fd = openSync(join(dir, name), 'wx', 0o644);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw new WarcDirError(dir, (error as Error).message, { cause: error });
      }
      let indexFd: number;
      try {
        indexFd = openSync(join(dir, indexFileName(name)), 'w', 0o644);
      } catch (error) {
        closeSync(fd);
        throw new WarcDirError(dir, (error as Error).message, { cause: error });
      }
      const info = await this.#options.warcinfo(name);
      const length = await writeRecord(fd, info.bytes, 0);
      this.#current = { name, fd, indexFd, size: length, captures: 0 };
      this.written.push(name);
      this.#options.onFile?.(name);
      this.#options.onRecord?.(info, length);
      return;
    }
  }

  #closeCurrent(): void {
    const current = this.#current;
    if (current === null) return;
    this.#current = null;
    for (const fd of [current.fd, current.indexFd]) {
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
}
