import { constants } from 'node:buffer';

/**
 * Collects a response body as it arrives. When the size is announced
 * (Content-Length within DOWNLOAD_MAXSIZE) the bytes are copied into one
 * buffer of that size, so a large body is not held twice at the end (its
 * chunks, then their concatenation); otherwise, or when more bytes come than
 * announced, it keeps the chunks and concatenates once.
 */
export class BodyBuffer {
  #target: Buffer | null = null;
  #chunks: Buffer[] = [];
  #size = 0;

  /** Bytes collected so far. */
  get size(): number {
    return this.#size;
  }

  /** The announced size; ignored once bytes have arrived, or when too small to be worth a buffer of its own. */
  expect(length: number): void {
    if (this.#size !== 0 || length <= 64 * 1024 || length > constants.MAX_LENGTH) return;
    // allocUnsafe maps pages that cost memory only once written: a lying Content-Length costs nothing, unless the
    // system refuses the mapping, and then the chunks will do.
    try {
      this.#target = Buffer.allocUnsafe(length);
    } catch {
      this.#target = null;
    }
  }

  push(chunk: Buffer): void {
    const end = this.#size + chunk.length;
    if (this.#target !== null && end <= this.#target.length) {
      chunk.copy(this.#target, this.#size);
    } else {
      if (this.#target !== null) {
        this.#chunks.push(this.#target.subarray(0, this.#size));
        this.#target = null;
      }
      this.#chunks.push(chunk);
    }
    this.#size = end;
  }

  /** Drops what was collected (a body over the limit). */
  clear(): void {
    this.#target = null;
    this.#chunks = [];
  }

  /** The body: the whole buffer when it was filled exactly, else a copy of what came. */
  take(): Buffer {
    if (this.#target !== null) return this.#size === this.#target.length ? this.#target : Buffer.from(this.#target.subarray(0, this.#size));
    return Buffer.concat(this.#chunks, this.#size);
  }
}
