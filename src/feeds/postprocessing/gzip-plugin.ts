/**
 * GzipPlugin: Scrapy's, with its options `gzip_compresslevel` (0–9,
 * default 9), `gzip_mtime` (seconds since the epoch written in the header;
 * default: now) and `gzip_filename` (the name written in the header;
 * default: the file's name without `.gz`, as Python's GzipFile takes it
 * from its file object). Node's zlib writes neither a time nor a name into
 * its gzip header, so this writes the header and trailer itself, as
 * Python's gzip module does (RFC 1952), around a raw deflate stream.
 */
import { crc32, createDeflateRaw } from 'node:zlib';
import { FeedOptionError } from '../feed-errors.js';
import { intOption, type FeedPluginOptions, type FeedPluginTarget } from './feed-plugin.js';
import { StreamPlugin } from './stream-plugin.js';

const FNAME = 0x08;
/** The OS byte Python writes: 255, "unknown". */
const OS_UNKNOWN = 0xff;

function mtimeOption(options: FeedPluginOptions): number | undefined {
  const value = options['gzip_mtime'];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value >= 2 ** 32) {
    throw new FeedOptionError(`The feed option gzip_mtime must be a time in seconds since 1970 (a number from 0 to 4294967295), not ${JSON.stringify(value)}`);
  }
  return Math.trunc(value);
}

function filenameOption(options: FeedPluginOptions): string | undefined {
  const value = options['gzip_filename'];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new FeedOptionError(`The feed option gzip_filename must be a string, not ${JSON.stringify(value)}`);
  return value;
}

export class GzipPlugin extends StreamPlugin {
  readonly #level: number;
  readonly #mtime: number;
  readonly #filename: string;
  #crc = 0;
  #size = 0;

  static check(options: FeedPluginOptions): void {
    intOption(options, 'gzip_compresslevel', 0, 9, 9);
    mtimeOption(options);
    filenameOption(options);
  }

  constructor(file: FeedPluginTarget, feedOptions: FeedPluginOptions) {
    const level = intOption(feedOptions, 'gzip_compresslevel', 0, 9, 9);
    super(file, () => createDeflateRaw({ level }));
    this.#level = level;
    this.#mtime = mtimeOption(feedOptions) ?? Math.trunc(Date.now() / 1000);
    // Python: basename of the name, without a trailing '.gz'.
    const name = (filenameOption(feedOptions) ?? file.name ?? '').split(/[/\\]/).pop()!;
    this.#filename = name.endsWith('.gz') ? name.slice(0, -3) : name;
  }

  protected override header(): Buffer {
    const name = this.#filename === '' ? Buffer.alloc(0) : Buffer.concat([Buffer.from(this.#filename, 'latin1'), Buffer.from([0])]);
    const fixed = Buffer.alloc(10);
    fixed.set([0x1f, 0x8b, 8, name.length > 0 ? FNAME : 0]);
    fixed.writeUInt32LE(this.#mtime, 4);
    // XFL as Python sets it: 2 for the best compression, 4 for the fastest.
    fixed[8] = this.#level === 9 ? 2 : this.#level === 1 ? 4 : 0;
    fixed[9] = OS_UNKNOWN;
    return Buffer.concat([fixed, name]);
  }

  protected override consumed(data: Buffer): void {
    this.#crc = crc32(data, this.#crc);
    this.#size = (this.#size + data.length) % 2 ** 32;
  }

  protected override trailer(): Buffer {
    const tail = Buffer.alloc(8);
    tail.writeUInt32LE(this.#crc >>> 0, 0);
    tail.writeUInt32LE(this.#size, 4);
    return tail;
  }
}
