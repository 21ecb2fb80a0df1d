/**
 * Type tests for post-processing plugins: `npx tsc --noEmit` fails if an
 * `@ts-expect-error` line stops being an error. Imported from the public
 * entry, as a project's settings.ts does; nothing here runs.
 */
import { GzipPlugin, type FeedPlugin, type FeedPluginClass, type FeedPluginOptions, type FeedPluginTarget } from '../../src/index.js';
import type { FeedSpec } from '../../src/feeds/index.js';

/** Scrapy's shape, synchronous: write and close return nothing. */
class SyncPlugin implements FeedPlugin {
  constructor(private readonly file: FeedPluginTarget) {}
  write(data: Buffer): void {
    void this.file.write(data);
  }
  close(): void {
    void this.file.close();
  }
}

/** The stream-friendly shape: both return promises, and the options are read. */
class AsyncPlugin implements FeedPlugin {
  constructor(
    private readonly file: FeedPluginTarget,
    private readonly options: FeedPluginOptions,
  ) {}
  async write(data: Buffer): Promise<void> {
    await this.file.write(this.options['upper'] === true ? Buffer.from(data.toString().toUpperCase()) : data);
  }
  async close(): Promise<void> {
    await this.file.close();
  }
}

export const plugins: FeedPluginClass[] = [GzipPlugin, SyncPlugin, AsyncPlugin];

export const feeds: FeedSpec[] = [{ path: 'items.jsonl.gz', postprocessing: ['GzipPlugin', AsyncPlugin], gzip_compresslevel: 6, upper: true }];

class NoClose {
  constructor(readonly file: FeedPluginTarget) {}
  write(): void {}
}

// @ts-expect-error a plugin needs close()
export const missingClose: FeedPluginClass = NoClose;

// @ts-expect-error write takes the bytes as a Buffer, not a string
export const wrongWrite: FeedPlugin = { write: (data: string) => void data, close: () => {} };
