/**
 * seine's post-processing against Scrapy 2.8's, recorded by
 * scripts/record-postprocessing-fixtures.py into
 * spec/fixtures/feeds/postprocessing/ (the same items, options and file
 * names): each file decompresses to what Scrapy's does, and the headers a
 * reader sees agree byte for byte — gzip's (time, flags, the name, OS),
 * xz's stream flags (the check), .lzma's properties, bzip2's block size.
 * The compressed bytes themselves differ: Node's zlib is not CPython's.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Settings } from '../../src/settings/index.js';
import { FeedExporter, resolveFeeds } from '../../src/feeds/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/feeds/', import.meta.url));
const ITEMS = JSON.parse(readFileSync(join(FIXTURES, 'items.input.json'), 'utf8')) as object[];
const CASES = JSON.parse(readFileSync(join(FIXTURES, 'postprocessing', 'cases.json'), 'utf8')) as Record<string, Record<string, unknown>>;

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'seine-pp-oracle-'));
  const feeds = Object.fromEntries(Object.entries(CASES).map(([name, options]) => [join(dir, name), { format: 'jsonlines', overwrite: true, ...options }]));
  const settings = new Settings({ FEEDS: feeds, FEED_TEMPDIR: dir }, 'project');
  const exporter = new FeedExporter(resolveFeeds(settings), { spider: { name: 'oracle' }, settings, logger: { info: () => {}, warning: () => {}, error: (m: string) => { throw new Error(m); } } });
  for (const item of ITEMS) exporter.exportItem(item);
  await exporter.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file decompressed by Python's modules, outermost first, as hex (the feed is bytes). */
function decompressed(path: string, modules: readonly string[]): string {
  const script = `import sys, gzip, lzma, bz2\ndata = open(sys.argv[1], 'rb').read()\nfor m in sys.argv[2:]: data = {'gzip': gzip, 'lzma': lzma, 'bz2': bz2}[m].decompress(data)\nsys.stdout.write(data.hex())`;
  const run = spawnSync('/usr/bin/python3', ['-c', script, path, ...modules], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

const seine = (name: string): Buffer => readFileSync(join(dir, name));
const scrapy = (name: string): Buffer => readFileSync(join(FIXTURES, 'postprocessing', name));
/** A gzip header: the 10 fixed bytes and the NUL-terminated name. */
const gzipHeader = (bytes: Buffer): Buffer => bytes.subarray(0, (bytes[3]! & 0x08) !== 0 ? bytes.indexOf(0, 10) + 1 : 10);

describe("post-processed feeds against Scrapy 2.8's", () => {
  it.each([
    ['items.jsonl.gz', ['gzip']],
    ['level1.jsonl.gz', ['gzip']],
    ['items.jsonl.xz', ['lzma']],
    ['items.jsonl.lzma', ['lzma']],
    ['items.jsonl.bz2', ['bz2']],
    ['chain.jsonl.bz2.gz', ['gzip', 'bz2']],
  ])('%s decompresses to the bytes Scrapy wrote', (name, modules) => {
    const expected = decompressed(join(FIXTURES, 'postprocessing', name), modules);
    expect(expected.length).toBeGreaterThan(100);
    expect(decompressed(join(dir, name), modules)).toBe(expected);
  });

  it.each(['items.jsonl.gz', 'level1.jsonl.gz', 'chain.jsonl.bz2.gz'])('%s has the gzip header Scrapy wrote (time, flags, name without .gz, OS)', (name) => {
    expect(gzipHeader(seine(name)).toString('hex')).toBe(gzipHeader(scrapy(name)).toString('hex'));
  });

  it('the .xz stream header (its check, CRC64) and the .lzma properties and dictionary size are the same', () => {
    expect(seine('items.jsonl.xz').subarray(0, 12).toString('hex')).toBe(scrapy('items.jsonl.xz').subarray(0, 12).toString('hex'));
    expect(seine('items.jsonl.lzma').subarray(0, 13).toString('hex')).toBe(scrapy('items.jsonl.lzma').subarray(0, 13).toString('hex'));
  });

  it('the bzip2 header gives the same block size (bz2_compresslevel 5: BZh5)', () => {
    expect(seine('items.jsonl.bz2').subarray(0, 4).toString('latin1')).toBe('BZh5');
    expect(scrapy('items.jsonl.bz2').subarray(0, 4).toString('latin1')).toBe('BZh5');
  });
});
