import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createWriteStream, unlink, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../private-files.js';
import type { BodyFile } from '../http/response.js';

/**
 * Writes a response body to a temporary file as it arrives, computing its
 * MD5 and size on the way, so that a media file of any size within
 * DOWNLOAD_MAXSIZE never sits whole in memory (docs/media.md). The file is
 * 0600 (it may hold what a site serves only to a logged-in user) and named
 * so that two crawls sharing a folder never collide. `write` returns false
 * when the caller should wait for `drain` (backpressure to the socket).
 */
export class BodyFileWriter {
  readonly path: string;
  readonly #out: WriteStream;
  readonly #md5: Hash = createHash('md5');
  #size = 0;
  #error: Error | null = null;

  constructor(dir: string) {
    this.path = join(dir, `seine-body-${process.pid}-${randomBytes(8).toString('hex')}.part`);
    this.#out = createWriteStream(this.path, { flags: 'wx', mode: PRIVATE_FILE_MODE });
    this.#out.on('error', (error) => {
      this.#error ??= error;
    });
  }

  get size(): number {
    return this.#size;
  }

  write(chunk: Buffer): boolean {
    this.#md5.update(chunk);
    this.#size += chunk.length;
    return this.#out.write(chunk);
  }

  onDrain(resume: () => void): void {
    this.#out.once('drain', resume);
  }

  /** Closes the file once every byte is on disk; rejects (and removes it) when the disk refused one. */
  finish(): Promise<BodyFile> {
    return new Promise<BodyFile>((resolve, reject) => {
      this.#out.end(() => {
        if (this.#error !== null) {
          const error = this.#error;
          void this.discard().then(() => reject(error));
          return;
        }
        resolve({ path: this.path, size: this.#size, md5: this.#md5.digest('hex') });
      });
      this.#out.once('error', (error) => {
        void this.discard().then(() => reject(error));
      });
    });
  }

  /** The download failed: the partial file goes. Resolves once it is gone, so the failure is reported after. */
  discard(): Promise<void> {
    return new Promise<void>((resolve) => {
      // The file is opened asynchronously: removed once the stream has closed, or an unlink before the open would miss it.
      const remove = (): void => unlink(this.path, () => resolve());
      if (this.#out.closed) remove();
      else {
        this.#out.once('close', remove);
        this.#out.destroy();
      }
    });
  }
}
