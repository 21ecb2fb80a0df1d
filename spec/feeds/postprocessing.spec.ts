/**
 * Feed post-processing (the `postprocessing` feed option): each built-in
 * plugin's output is read back by an independent reader — Python's gzip,
 * lzma and bz2 modules (/usr/bin/python3, the interpreter Scrapy 2.8 runs
 * on) and the zstd command; Brotli by Node's decoder, as Debian's Python
 * has no brotli module — and equals the feed written without the plugin.
 * Also: Scrapy's gzip header fields, appending a compressed batch to an
 * earlier one (-o), a chain of two plugins, a user's own plugin class, a
 * plugin that throws (the items kept), and bounded memory on a big feed.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { Settings } from '../../src/settings/index.js';
import { FeedExporter, resolveFeeds, type FeedPluginOptions, type FeedPluginTarget } from '../../src/feeds/index.js';

let dir: string;
let temp: string;
let logs: string[];
let stats: Record<string, number>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-pp-'));
  temp = mkdtempSync(join(tmpdir(), 'seine-pp-temp-'));
  logs = [];
  stats = {};
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(temp, { recursive: true, force: true });
});

function exporter(feeds: Record<string, { format: string; [option: string]: unknown }>, settings: Record<string, unknown> = {}): FeedExporter {
  const s = new Settings({ FEED_TEMPDIR: temp, FEEDS: feeds, ...settings }, 'project');
  return new FeedExporter(resolveFeeds(s), {
    spider: { name: 'quotes' },
    settings: s,
    logger: { info: (m: string) => logs.push(`INFO: ${m}`), warning: (m: string) => logs.push(`WARNING: ${m}`), error: (m: string) => logs.push(`ERROR: ${m}`) },
    stats: { inc: (key: string) => void (stats[key] = (stats[key] ?? 0) + 1) },
  });
}

const ITEMS = Array.from({ length: 300 }, (_, i) => ({ n: i, text: `quote ${i} — “${'x'.repeat(i % 50)}”`, tags: ['a', String(i % 7)] }));

async function writeFeed(name: string, options: Record<string, unknown>, items: readonly object[] = ITEMS): Promise<string> {
  const feeds = exporter({ [join(dir, name)]: { format: 'jsonlines', ...options } });
  for (const item of items) feeds.exportItem(item);
  await feeds.close();
  return join(dir, name);
}

/** Runs /usr/bin/python3 with a script; returns its standard output. */
function python(script: string, ...args: string[]): string {
  const run = spawnSync('/usr/bin/python3', ['-c', script, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

/** What Python's module reads from a compressed file, as UTF-8 text. */
const pythonRead = (module: 'gzip' | 'lzma' | 'bz2', path: string, open = `${module}.open(sys.argv[1])`): string =>
  python(`import sys, ${module}; sys.stdout.buffer.write(${open}.read())`, path);

let plain: string;
beforeEach(async () => {
  plain = readFileSync(await writeFeed('plain.jsonl', {}), 'utf8');
  logs = [];
  stats = {};
});

describe('built-in plugins, read back by independent readers', () => {
  it('GzipPlugin: Python reads the feed, and the header holds gzip_mtime and the file name without .gz, as Python writes it', async () => {
    const path = await writeFeed('items.jsonl.gz', { postprocessing: ['GzipPlugin'], gzip_mtime: 1700000000 });
    expect(pythonRead('gzip', path)).toBe(plain);
    // Python's GzipFile keeps the header's mtime; the name is the NUL-terminated field after the 10 fixed bytes (FNAME set).
    expect(python('import sys, gzip; f = gzip.open(sys.argv[1]); f.read(); print(f.mtime)', path).trim()).toBe('1700000000');
    const bytes = readFileSync(path);
    expect([bytes[3], bytes[8], bytes[9]]).toEqual([0x08, 2, 255]);
    expect(bytes.subarray(10, bytes.indexOf(0, 10)).toString('latin1')).toBe('items.jsonl');
    expect(logs).toEqual([`INFO: Stored jsonlines feed (300 items) in: ${path}`]);
    expect(stats).toEqual({ 'feedexport/success_count/FileFeedStorage': 1 });
  });

  it('GzipPlugin takes gzip_filename and gzip_compresslevel', async () => {
    const path = await writeFeed('items.gz', { postprocessing: ['GzipPlugin'], gzip_filename: 'export/quotes.jsonl.gz', gzip_compresslevel: 1 });
    expect(pythonRead('gzip', path)).toBe(plain);
    const bytes = readFileSync(path);
    expect(bytes[8]).toBe(4);
    expect(bytes.subarray(10, bytes.indexOf(0, 10)).toString('latin1')).toBe('quotes.jsonl');
  });

  it('LZMAPlugin writes .xz (crc64) by default, and the legacy .lzma with lzma_format alone', async () => {
    const xz = await writeFeed('items.jsonl.xz', { postprocessing: ['LZMAPlugin'] });
    expect(pythonRead('lzma', xz)).toBe(plain);
    expect(spawnSync('xz', ['--robot', '--list', xz], { encoding: 'utf8' }).stdout).toContain('\tCRC64\t');
    const alone = await writeFeed('items.jsonl.lzma', { postprocessing: ['LZMAPlugin'], lzma_format: 'alone', lzma_preset: 1 });
    expect(pythonRead('lzma', alone, 'lzma.open(sys.argv[1], format=lzma.FORMAT_ALONE)')).toBe(plain);
  });

  it("LZMAPlugin takes Python's check and filter chain (numbers as Python's constants)", async () => {
    const path = await writeFeed('items.xz', { postprocessing: ['LZMAPlugin'], lzma_check: 10, lzma_filters: [{ id: 3, dist: 1 }, { id: 33, preset: 1 }] });
    expect(pythonRead('lzma', path)).toBe(plain);
    expect(spawnSync('xz', ['--robot', '--list', path], { encoding: 'utf8' }).stdout).toContain('\tSHA-256\t');
    const alone = await writeFeed('items.lzma', { postprocessing: ['LZMAPlugin'], lzma_format: 'alone', lzma_filters: [{ id: 'lzma1', dict_size: 1 << 16, nice_len: 32 }] });
    expect(pythonRead('lzma', alone, 'lzma.open(sys.argv[1], format=lzma.FORMAT_ALONE)')).toBe(plain);
  });

  it('Bz2Plugin: Python and bzip2 read it, with bz2_compresslevel', async () => {
    const path = await writeFeed('items.jsonl.bz2', { postprocessing: ['Bz2Plugin'], bz2_compresslevel: 1 });
    expect(pythonRead('bz2', path)).toBe(plain);
    expect(spawnSync('bzip2', ['-dc', path], { encoding: 'utf8' }).stdout).toBe(plain);
  });

  it('ZstdPlugin: the zstd command reads it', async () => {
    const path = await writeFeed('items.jsonl.zst', { postprocessing: ['ZstdPlugin'], zstd_compresslevel: 19 });
    expect(spawnSync('zstd', ['-dc', path], { encoding: 'utf8' }).stdout).toBe(plain);
  });

  it('BrotliPlugin: a Brotli decoder reads it', async () => {
    const path = await writeFeed('items.jsonl.br', { postprocessing: ['BrotliPlugin'], brotli_quality: 5, brotli_mode: 'text' });
    expect(brotliDecompressSync(readFileSync(path)).toString('utf8')).toBe(plain);
  });

  it("Scrapy's dotted plugin paths name the same plugins, and an empty feed is still a valid archive", async () => {
    const path = await writeFeed('empty.jsonl.bz2', { postprocessing: ['scrapy.extensions.postprocessing.Bz2Plugin'], store_empty: true }, []);
    expect(pythonRead('bz2', path)).toBe('');
    const zst = await writeFeed('empty.jsonl.zst', { postprocessing: ['ZstdPlugin'], store_empty: true }, []);
    expect(spawnSync('zstd', ['-dc', zst], { encoding: 'utf8' }).stdout).toBe('');
  });
});

describe('chains, appending, batches', () => {
  it('runs a chain first to last: gzip of the bzip2 of the feed', async () => {
    const path = await writeFeed('items.bz2.gz', { postprocessing: ['Bz2Plugin', 'GzipPlugin'] });
    expect(python('import sys, gzip, bz2; sys.stdout.buffer.write(bz2.decompress(gzip.open(sys.argv[1]).read()))', path)).toBe(plain);
  });

  it('appends (-o) a second run to the first as one more gzip member, which readers join, as Scrapy does', async () => {
    const path = await writeFeed('items.jsonl.gz', { postprocessing: ['GzipPlugin'], overwrite: false }, ITEMS.slice(0, 2));
    await writeFeed('items.jsonl.gz', { postprocessing: ['GzipPlugin'], overwrite: false }, ITEMS.slice(2, 3));
    expect(pythonRead('gzip', path)).toBe(plain.split('\n').slice(0, 3).join('\n') + '\n');
  });

  it('compresses each batch into its own file, and leaves nothing in FEED_TEMPDIR', async () => {
    const feeds = exporter({ [join(dir, 'batch-%(batch_id)d.jsonl.gz')]: { format: 'jsonlines', postprocessing: ['GzipPlugin'], batch_item_count: 2 } });
    const lines = plain.split('\n');
    feeds.exportItem(ITEMS[0]!);
    feeds.exportItem(ITEMS[1]!);
    // Batch 1 is compressed into place while the crawl goes on, before the feeds close.
    for (let wait = 0; logs.length === 0 && wait < 200; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(logs).toEqual([`INFO: Stored jsonlines feed (2 items) in: ${join(dir, 'batch-1.jsonl.gz')}`]);
    expect(pythonRead('gzip', join(dir, 'batch-1.jsonl.gz'))).toBe(lines.slice(0, 2).join('\n') + '\n');
    for (const item of ITEMS.slice(2, 5)) feeds.exportItem(item);
    await feeds.close();
    expect(pythonRead('gzip', join(dir, 'batch-1.jsonl.gz'))).toBe(lines.slice(0, 2).join('\n') + '\n');
    expect(pythonRead('gzip', join(dir, 'batch-3.jsonl.gz'))).toBe(lines[4] + '\n');
    expect(readdirSync(temp)).toEqual([]);
    expect(stats).toEqual({ 'feedexport/success_count/FileFeedStorage': 3 });
  });
});

describe('plugins of your own', () => {
  /** Scrapy's plugin shape: constructor(file, feedOptions), write, close. */
  class UpperPlugin {
    constructor(
      private readonly file: FeedPluginTarget,
      private readonly options: FeedPluginOptions,
    ) {}
    async write(data: Buffer): Promise<void> {
      await this.file.write(Buffer.from(data.toString('utf8').toUpperCase() + String(this.options['upper_suffix'] ?? '')));
    }
    async close(): Promise<void> {
      await this.file.close();
    }
  }

  it('a class in the chain gets the feed options and writes to the next plugin', async () => {
    const path = await writeFeed('upper.jsonl.gz', { postprocessing: [UpperPlugin, 'GzipPlugin'], upper_suffix: '' }, ITEMS.slice(0, 2));
    expect(pythonRead('gzip', path)).toBe(plain.split('\n').slice(0, 2).join('\n').toUpperCase() + '\n');
  });

  it('a plugin that throws: one ERROR, the old file untouched, the items kept in FEED_TEMPDIR', async () => {
    class BrokenPlugin extends UpperPlugin {
      override async write(): Promise<void> {
        throw new Error('disk quota exceeded');
      }
    }
    writeFileSync(join(dir, 'broken.jsonl'), 'old\n');
    const feeds = exporter({ [join(dir, 'broken.jsonl')]: { format: 'jsonlines', overwrite: true, postprocessing: [BrokenPlugin] } });
    feeds.exportItem(ITEMS[0]!);
    await feeds.close();
    const [kept] = readdirSync(temp);
    expect(kept).toMatch(/^undelivered-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d+-\d+-broken\.jsonl$/);
    expect(logs).toEqual([
      `ERROR: Error storing jsonlines feed (1 items) in: ${join(dir, 'broken.jsonl')}: disk quota exceeded; the feed is kept in ${join(temp, kept!)} (no run overwrites it: deliver it from there)`,
    ]);
    expect(readFileSync(join(temp, kept!), 'utf8')).toBe(plain.split('\n')[0] + '\n');
    expect(readFileSync(join(dir, 'broken.jsonl'), 'utf8')).toBe('old\n');
    expect(readdirSync(dir).filter((name) => name.includes('seine-tmp'))).toEqual([]);
    expect(stats).toEqual({ 'feedexport/failed_count/FileFeedStorage': 1 });
  });
});

describe('working files', () => {
  it('writes the items to a file only its owner can read, in FEED_TEMPDIR, named after the feed', async () => {
    const feeds = exporter({ [join(dir, 'items.jsonl.gz')]: { format: 'jsonlines', postprocessing: ['GzipPlugin'] } });
    feeds.exportItem(ITEMS[0]!);
    const [working] = readdirSync(temp);
    expect(working).toMatch(/^seine-feed-\d+-\d+-items\.jsonl\.gz$/);
    expect(spawnSync('stat', ['-c', '%a', join(temp, working!)], { encoding: 'utf8' }).stdout.trim()).toBe('600');
    // Not yet written while the run that exported it goes on (the page's other items join it in one write)…
    expect(readFileSync(join(temp, working!), 'utf8')).toBe('');
    // …and on disk once that run ends, before the feed closes: a crash loses nothing exported before.
    await Promise.resolve();
    expect(readFileSync(join(temp, working!), 'utf8')).toBe(plain.split('\n')[0] + '\n');
    await feeds.close();
    // The feed itself is made as any file is (0666 less the umask), as a feed written in place is.
    const mode = spawnSync('stat', ['-c', '%a', join(dir, 'items.jsonl.gz')], { encoding: 'utf8' }).stdout.trim();
    expect(mode).toBe(spawnSync('stat', ['-c', '%a', join(dir, 'plain.jsonl')], { encoding: 'utf8' }).stdout.trim());
  });

  it('refuses a FEED_TEMPDIR that is not a folder before anything is written', () => {
    expect(() => exporter({ [join(dir, 'a.jsonl.gz')]: { format: 'jsonlines', postprocessing: ['GzipPlugin'] } }, { FEED_TEMPDIR: join(dir, 'none') })).toThrow(
      `FEED_TEMPDIR '${join(dir, 'none')}' is not a folder: create it, or set FEED_TEMPDIR to a folder where the local copies of remote and post-processed feeds can be written`,
    );
    expect(existsSync(join(dir, 'a.jsonl.gz'))).toBe(false);
  });

  it('streams a 40 MB feed through gzip with memory far below its size', async () => {
    const feeds = exporter({ [join(dir, 'big.jsonl.gz')]: { format: 'jsonlines', postprocessing: ['GzipPlugin'], gzip_compresslevel: 1 } });
    const item = { text: 'y'.repeat(4000) };
    for (let i = 0; i < 10_000; i++) feeds.exportItem({ ...item, n: i });
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    await feeds.close();
    clearInterval(timer);
    expect(peak - before).toBeLessThan(30 * 1024 * 1024);
    const lines = python('import sys, gzip; print(sum(1 for _ in gzip.open(sys.argv[1])))', join(dir, 'big.jsonl.gz'));
    expect(lines.trim()).toBe('10000');
  });
});
