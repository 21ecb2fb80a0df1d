/**
 * ZstdPlugin (seine's; Scrapy 2.8 has none): Zstandard frames from the
 * reference library built to WebAssembly (@bokuweb/zstd-wasm, loaded on the
 * first feed that uses it; Node 20's zlib has no zstd). Options:
 * `zstd_compresslevel` (1–22, default 3, zstd's own) and
 * `zstd_chunk_size` (bytes per frame, default 4 MiB: bigger compresses a
 * little better and holds more memory).
 */
import { lazyPackage } from '../../errors/lazy-package.js';
import { ChunkedPlugin } from './chunked-plugin.js';
import { intOption, type FeedPluginOptions, type FeedPluginTarget } from './feed-plugin.js';

interface ZstdWasm {
  init(): Promise<void>;
  compress(data: Uint8Array, level: number): Uint8Array;
}

const zstdWasm = lazyPackage<ZstdWasm>('@bokuweb/zstd-wasm', 'the ZstdPlugin of feed post-processing');

let ready: Promise<ZstdWasm> | undefined;
function zstd(): Promise<ZstdWasm> {
  if (ready !== undefined) return ready;
  const module = zstdWasm();
  ready = module.init().then(() => module);
  ready.catch(() => (ready = undefined));
  return ready;
}

const DEFAULT_CHUNK = 4 * 1024 * 1024;

function settings(options: FeedPluginOptions): { level: number; chunkSize: number } {
  return {
    level: intOption(options, 'zstd_compresslevel', 1, 22, 3),
    chunkSize: intOption(options, 'zstd_chunk_size', 64 * 1024, 256 * 1024 * 1024, DEFAULT_CHUNK),
  };
}

export class ZstdPlugin extends ChunkedPlugin {
  static check(options: FeedPluginOptions): void {
    settings(options);
    zstdWasm();
  }

  constructor(file: FeedPluginTarget, feedOptions: FeedPluginOptions) {
    const { level, chunkSize } = settings(feedOptions);
    super(file, chunkSize, async (chunk) => Buffer.from((await zstd()).compress(chunk, level)));
  }
}
