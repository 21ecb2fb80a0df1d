/**
 * A plugin over a compressing stream (zlib's, liblzma's): what goes in is
 * written to the stream, and what comes out is written to the target one
 * chunk at a time, each awaited, so the memory held is the stream's own
 * buffers however big the feed is.
 */
import { once } from 'node:events';
import type { Duplex } from 'node:stream';
import type { FeedPlugin, FeedPluginTarget } from './feed-plugin.js';

export class StreamPlugin implements FeedPlugin {
  #stream: Duplex | undefined;
  #pump: Promise<void> | undefined;
  #failure: unknown;

  /** `open` makes the stream on the first write, so a package it needs is loaded only when a feed is compressed. */
  constructor(
    protected readonly file: FeedPluginTarget,
    private readonly open: () => Duplex | Promise<Duplex>,
  ) {}

  /** Bytes the plugin writes before the stream's (a header), and after it (a trailer), given what went in. */
  protected header(): Buffer | undefined {
    return undefined;
  }

  protected trailer(): Buffer | undefined {
    return undefined;
  }

  /** Sees every chunk that goes in (a checksum). */
  protected consumed(_data: Buffer): void {}

  async #started(): Promise<Duplex> {
    if (this.#stream !== undefined) return this.#stream;
    const stream = await this.open();
    this.#stream = stream;
    const head = this.header();
    if (head !== undefined) await this.file.write(head);
    this.#pump = (async () => {
      for await (const chunk of stream) await this.file.write(chunk as Buffer);
    })().catch((error: unknown) => {
      this.#failure ??= error;
      stream.destroy();
    });
    return stream;
  }

  #check(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  async write(data: Buffer): Promise<void> {
    const stream = await this.#started();
    this.#check();
    this.consumed(data);
    if (!stream.write(data)) {
      // 'drain' never comes to a stream the pump destroyed: wait for whichever is first.
      await Promise.race([once(stream, 'drain'), this.#pump]);
      this.#check();
    }
  }

  async close(): Promise<void> {
    const stream = await this.#started();
    stream.end();
    await this.#pump;
    this.#check();
    const tail = this.trailer();
    if (tail !== undefined) await this.file.write(tail);
    await this.file.close();
  }
}
