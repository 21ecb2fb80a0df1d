/**
 * Bz2Plugin: Scrapy's, with `bz2_compresslevel` (1–9, default 9: the
 * block size in 100 kB, as bzip2's). The encoder is 7-Zip's, built to
 * WebAssembly (the 7z-wasm package, loaded on the first feed that uses it):
 * the one maintained bzip2 encoder on npm, 1.6 MB/s on a JSON Lines feed
 * against compressjs's 0.3 MB/s (docs/dependencies.md). Each chunk of one
 * block is one bzip2 stream, so chunking costs no compression.
 */
import { lazyPackage } from '../../errors/lazy-package.js';
import { ChunkedPlugin } from './chunked-plugin.js';
import { intOption, type FeedPluginOptions, type FeedPluginTarget } from './feed-plugin.js';

/** What seine uses of the 7-Zip module: its in-memory file system and its command line. */
interface SevenZip {
  FS: { writeFile(path: string, data: Uint8Array): void; readFile(path: string): Uint8Array; unlink(path: string): void };
  callMain(args: string[]): number;
}
type SevenZipFactory = (options: { print(text: string): void; printErr(text: string): void }) => Promise<SevenZip>;

const sevenZipModule = lazyPackage<SevenZipFactory | { default: SevenZipFactory }>('7z-wasm', 'the Bz2Plugin of feed post-processing');

let instance: Promise<SevenZip> | undefined;
/** The last line 7-Zip printed: what a failure message quotes. */
let lastLine = '';
/** One module for the process: each instance is a WebAssembly memory of its own. */
function sevenZip(): Promise<SevenZip> {
  if (instance !== undefined) return instance;
  const loaded = sevenZipModule();
  const factory = typeof loaded === 'function' ? loaded : loaded.default;
  const keep = (text: string): void => {
    if (text.trim() !== '') lastLine = text.trim();
  };
  instance = factory({ print: keep, printErr: keep });
  instance.catch(() => (instance = undefined));
  return instance;
}

const IN = '/seine-feed-chunk';
const OUT = '/seine-feed-chunk.bz2';

async function compressChunk(chunk: Buffer, level: number): Promise<Buffer> {
  const module = await sevenZip();
  module.FS.writeFile(IN, chunk);
  // -md: the block size (bzip2's -1 … -9); -mmt=1: the WebAssembly build has no threads.
  const status = module.callMain(['a', '-tbzip2', `-md=${level * 100}k`, '-mmt=1', '-y', '-bso0', '-bsp0', OUT, IN]);
  try {
    if (status !== 0) throw new Error(`the bzip2 encoder (7-Zip) failed with status ${status}: ${lastLine}`);
    return Buffer.from(module.FS.readFile(OUT));
  } finally {
    module.FS.unlink(IN);
    if (status === 0) module.FS.unlink(OUT);
  }
}

export class Bz2Plugin extends ChunkedPlugin {
  static check(options: FeedPluginOptions): void {
    intOption(options, 'bz2_compresslevel', 1, 9, 9);
    sevenZipModule();
  }

  constructor(file: FeedPluginTarget, feedOptions: FeedPluginOptions) {
    const level = intOption(feedOptions, 'bz2_compresslevel', 1, 9, 9);
    // A bzip2 block holds level × 100,000 bytes before its run-length step: one chunk, one block.
    super(file, level * 100_000, (chunk) => compressChunk(chunk, level));
  }
}
