/**
 * The `postprocessing` feed option: plugin names (or classes) checked when
 * the crawl starts, and the chain run over a finished feed file. Scrapy
 * runs its plugins as the exporter writes; seine writes each item to a
 * plain local file first (synchronously, so nothing exported is lost on
 * Ctrl-C) and streams that file through the chain when the feed or batch
 * closes (feed-delivery.ts).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { basename } from 'node:path';
import { FeedOptionError } from '../feed-errors.js';
import { Bz2Plugin } from './bz2-plugin.js';
import type { FeedPluginClass, FeedPluginOptions, FeedPluginTarget } from './feed-plugin.js';
import { BrotliPlugin } from './brotli-plugin.js';
import { GzipPlugin } from './gzip-plugin.js';
import { LZMAPlugin } from './lzma-plugin.js';
import { ZstdPlugin } from './zstd-plugin.js';

export const BUILT_IN_PLUGINS: Readonly<Record<string, FeedPluginClass>> = { GzipPlugin, LZMAPlugin, Bz2Plugin, BrotliPlugin, ZstdPlugin };

/** Every option the built-in plugins read, by prefix: another `gzip_…` is a typo. */
const PLUGIN_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  gzip_: ['gzip_compresslevel', 'gzip_mtime', 'gzip_filename'],
  lzma_: ['lzma_format', 'lzma_check', 'lzma_preset', 'lzma_filters'],
  bz2_: ['bz2_compresslevel'],
  brotli_: ['brotli_quality', 'brotli_lgwin', 'brotli_mode'],
  zstd_: ['zstd_compresslevel', 'zstd_chunk_size'],
};

/** Scrapy's own paths name the same plugins, so a Scrapy project's FEEDS carries over. */
const SCRAPY_MODULE = 'scrapy.extensions.postprocessing.';

function pluginOf(entry: unknown, feed: string): FeedPluginClass {
  if (typeof entry === 'function') return entry as FeedPluginClass;
  const name = typeof entry === 'string' && entry.startsWith(SCRAPY_MODULE) ? entry.slice(SCRAPY_MODULE.length) : entry;
  const found = typeof name === 'string' ? BUILT_IN_PLUGINS[name] : undefined;
  if (found !== undefined) return found;
  throw new FeedOptionError(
    `Unknown post-processing plugin ${JSON.stringify(entry)} for the feed '${feed}': use ${Object.keys(BUILT_IN_PLUGINS).join(', ')} or a plugin class (constructor(file, feedOptions) with write and close)`,
  );
}

/** The feed's plugins, first to last, with their options checked; a FeedOptionError says what is wrong. */
export function resolvePlugins(options: FeedPluginOptions, feed: string): FeedPluginClass[] {
  const list = options['postprocessing'];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new FeedOptionError(`The feed option postprocessing of '${feed}' must be a list of plugins, e.g. ['GzipPlugin'], not ${JSON.stringify(list)}`);
  const plugins = list.map((entry: unknown) => pluginOf(entry, feed));
  for (const key of Object.keys(options)) {
    const prefix = Object.keys(PLUGIN_OPTIONS).find((start) => key.startsWith(start));
    if (prefix !== undefined && !PLUGIN_OPTIONS[prefix]!.includes(key)) {
      throw new FeedOptionError(`Unknown feed option '${key}' for the feed '${feed}': the post-processing options are ${Object.values(PLUGIN_OPTIONS).flat().join(', ')}`);
    }
  }
  for (const plugin of plugins) plugin.check?.(options);
  return plugins;
}

/**
 * A file as a plugin's target: writes wait for the disk, close() waits
 * until the file is closed. `name` is the name readers will see (the
 * target's, when `path` is a temporary file renamed over it later); a new
 * file gets `mode` (0600: a working file only its owner reads).
 */
export function fileTarget(path: string, append: boolean, name = basename(path), mode = 0o600): FeedPluginTarget & { destroy(): void } {
  const stream = createWriteStream(path, { flags: append ? 'a' : 'w', mode });
  let failure: Error | undefined;
  stream.on('error', (error) => (failure ??= error));
  return {
    name,
    write: (data) =>
      new Promise<void>((resolve, reject) => {
        if (failure !== undefined) return reject(failure);
        stream.write(data, (error) => (error ? reject(error) : resolve()));
      }),
    close: async () => {
      if (failure !== undefined) throw failure;
      stream.end();
      await once(stream, 'close');
      if (failure !== undefined) throw failure;
    },
    destroy: () => void stream.destroy(),
  };
}

/**
 * Streams the file at `input` through `plugins` (the first gets the bytes
 * first) into `output`, which the last plugin closes. A plugin that throws
 * rejects the promise; `output` may then hold part of the result.
 */
export async function runPlugins(plugins: readonly FeedPluginClass[], options: FeedPluginOptions, input: string, output: FeedPluginTarget): Promise<void> {
  let head: FeedPluginTarget = output;
  for (const Plugin of [...plugins].reverse()) head = new Plugin(head, options);
  for await (const chunk of createReadStream(input, { highWaterMark: 256 * 1024 })) await head.write(chunk as Buffer);
  await head.close();
}
