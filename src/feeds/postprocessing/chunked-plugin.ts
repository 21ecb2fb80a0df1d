/**
 * A plugin over a compressor that takes a whole buffer at a time (bzip2 and
 * zstd: no maintained streaming encoder on npm, docs/dependencies.md). The
 * feed is cut into chunks of a fixed size, each compressed on its own into
 * one complete stream (bzip2) or frame (zstd), written one after another:
 * every reader of these formats (Python's bz2, `bzip2 -d`, `zstd -d`) reads
 * concatenated streams as one file. Memory stays at one chunk.
 */
import type { FeedPlugin, FeedPluginTarget } from './feed-plugin.js';

export class ChunkedPlugin implements FeedPlugin {
  #parts: Buffer[] = [];
  #held = 0;
  #wrote = false;

  constructor(
    private readonly file: FeedPluginTarget,
    private readonly chunkSize: number,
    /** Compresses one chunk into one complete stream or frame; loads its package on the first call. */
    private readonly compress: (chunk: Buffer) => Buffer | Promise<Buffer>,
  ) {}

  async #flush(chunk: Buffer): Promise<void> {
    this.#wrote = true;
    await this.file.write(await this.compress(chunk));
  }

  async write(data: Buffer): Promise<void> {
    let rest = data;
    while (this.#held + rest.length >= this.chunkSize) {
      const take = this.chunkSize - this.#held;
      const chunk = Buffer.concat([...this.#parts, rest.subarray(0, take)]);
      this.#parts = [];
      this.#held = 0;
      rest = rest.subarray(take);
      await this.#flush(chunk);
    }
    if (rest.length > 0) {
      // Copied: the caller may reuse its buffer.
      this.#parts.push(Buffer.from(rest));
      this.#held += rest.length;
    }
  }

  async close(): Promise<void> {
    // An empty feed still gets one (empty) stream, so the file is a valid archive.
    if (this.#held > 0 || !this.#wrote) await this.#flush(Buffer.concat(this.#parts));
    this.#parts = [];
    this.#held = 0;
    await this.file.close();
  }
}
