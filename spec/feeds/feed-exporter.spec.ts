/**
 * FeedExporter with FEEDS-style options, on real files in a temporary
 * folder: several feeds at once, batches, store_empty, filters, path
 * placeholders, the append warning, the errors raised before a crawl,
 * temporary files left by killed runs, failures while crawling and
 * closing, and the append-mode file sizes a resumed job truncates to.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Settings } from '../../src/settings/index.js';
import { FeedExporter, JsonExporter, resolveFeeds, type FeedSpec } from '../../src/feeds/index.js';

let dir: string;
let logs: string[];
let stats: Record<string, number>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-feeds-'));
  logs = [];
  stats = {};
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const NOW = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678));

function exporter(settings: Record<string, unknown>, extra: FeedSpec[] = [], spider: object = { name: 'quotes' }): FeedExporter {
  const s = new Settings(settings, 'project');
  return new FeedExporter(resolveFeeds(s, extra), {
    spider,
    now: () => NOW,
    logger: { info: (m: string) => logs.push(`INFO: ${m}`), warning: (m: string) => logs.push(`WARNING: ${m}`), error: (m: string) => logs.push(`ERROR: ${m}`) },
    stats: { inc: (key: string, by = 1) => void (stats[key] = (stats[key] ?? 0) + by) },
  });
}

const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
const ITEMS = [{ text: 'a', tags: ['x', 'y'] }, { text: 'b', tags: [] }, { text: 'c', tags: ['z'] }];

describe('FEEDS', () => {
  it('writes two feeds at once, each in its format, and logs Stored for each', () => {
    const json = join(dir, 'items.json');
    const csv = join(dir, 'items.csv');
    const feeds = exporter({ FEEDS: { [json]: { format: 'json' }, [csv]: { format: 'csv', fields: ['tags', 'text'] } } });
    for (const item of ITEMS) feeds.exportItem(item);
    feeds.close();
    expect(read('items.json')).toBe('[\n{"text": "a", "tags": ["x", "y"]},\n{"text": "b", "tags": []},\n{"text": "c", "tags": ["z"]}\n]');
    expect(read('items.csv')).toBe('tags,text\r\n"x,y",a\r\n,b\r\nz,c\r\n');
    expect(logs).toEqual([`INFO: Stored json feed (3 items) in: ${json}`, `INFO: Stored csv feed (3 items) in: ${csv}`]);
    expect(stats).toEqual({ 'feedexport/success_count/FileFeedStorage': 2 });
  });

  it('takes encoding, fields and indent from FEED_EXPORT_* unless the feed sets them', () => {
    const feeds = exporter({
      FEED_EXPORT_ENCODING: 'utf-8', FEED_EXPORT_FIELDS: ['text'], FEED_EXPORT_INDENT: 2,
      FEEDS: { [join(dir, 'a.json')]: { format: 'json' }, [join(dir, 'b.jsonl')]: { format: 'jsonlines', fields: null, encoding: null } },
    });
    feeds.exportItem({ text: 'é', n: 1 });
    feeds.close();
    expect(read('a.json')).toBe('[\n{\n  "text": "é"\n}\n]');
    expect(read('b.jsonl')).toBe('{"text": "\\u00e9", "n": 1}\n');
  });

  it('a FEEDS entry replaces the -o feed with the same path', () => {
    const path = join(dir, 'items.out');
    const feeds = exporter({ FEEDS: { [path]: { format: 'csv' } } }, [{ path, format: 'jsonlines', overwrite: true }]);
    feeds.exportItem({ a: 1 });
    feeds.close();
    expect(read('items.out')).toBe('a\r\n1\r\n');
  });

  it('item_classes exports only instances of those classes; item_filter decides per item', () => {
    class Quote { text = 'q'; }
    class Author { name = 'n'; }
    const feeds = exporter({
      FEEDS: {
        [join(dir, 'quotes.jsonl')]: { format: 'jsonlines', item_classes: [Quote] },
        [join(dir, 'authors.jsonl')]: { format: 'jsonlines', item_classes: ['Author'] },
        [join(dir, 'named.jsonl')]: { format: 'jsonlines', item_filter: class { accepts(item: unknown) { return 'name' in (item as object); } } },
      },
    });
    for (const item of [new Quote(), new Author(), { text: 'plain' }]) feeds.exportItem(item);
    feeds.close();
    expect(read('quotes.jsonl')).toBe('{"text": "q"}\n');
    expect(read('authors.jsonl')).toBe('{"name": "n"}\n');
    expect(read('named.jsonl')).toBe('{"name": "n"}\n');
  });
});

describe('batches', () => {
  it('starts a new file every batch_item_count items, numbered by %(batch_id)02d', () => {
    const feeds = exporter({ FEEDS: { [join(dir, '%(name)s-%(batch_id)02d.json')]: { format: 'json', batch_item_count: 2 } } });
    for (const item of ITEMS) feeds.exportItem(item);
    feeds.close();
    expect(readdirSync(dir).sort()).toEqual(['quotes-01.json', 'quotes-02.json']);
    expect(JSON.parse(read('quotes-01.json'))).toEqual(ITEMS.slice(0, 2));
    expect(JSON.parse(read('quotes-02.json'))).toEqual(ITEMS.slice(2));
    expect(logs).toEqual([
      `INFO: Stored json feed (2 items) in: ${join(dir, 'quotes-01.json')}`,
      `INFO: Stored json feed (1 items) in: ${join(dir, 'quotes-02.json')}`,
    ]);
  });

  it('FEED_EXPORT_BATCH_ITEM_COUNT applies to every feed; %(time)s and %(batch_time)s are UTC with - for :', () => {
    const feeds = exporter({ FEED_EXPORT_BATCH_ITEM_COUNT: 5, FEEDS: { [join(dir, '%(time)s_%(batch_time)s.jsonl')]: { format: 'jsonlines' } } });
    feeds.exportItem({ a: 1 });
    feeds.close();
    expect(readdirSync(dir)).toEqual(['2024-01-02T03-04-05_2024-01-02T03-04-05.678000.jsonl']);
  });

  it('refuses a batched feed whose path cannot tell batches apart', () => {
    expect(() => exporter({ FEEDS: { 'items.json': { format: 'json', batch_item_count: 10 } } })).toThrow(
      "The feed 'items.json' is split into batches of 10 items, but its path has no %(batch_time)s or %(batch_id)d: add one, e.g. items-%(batch_id)d.json, so that each batch gets its own file",
    );
  });
});

describe('store_empty', () => {
  it('off: a feed without items is an empty file, and no Stored line', () => {
    const feeds = exporter({ FEED_STORE_EMPTY: false, FEEDS: { [join(dir, 'none.json')]: { format: 'json' } } });
    feeds.close();
    expect(read('none.json')).toBe('');
    expect(logs).toEqual([]);
  });

  it('on (the default, as in Scrapy 2.10 and later): an empty document, and a Stored line with 0 items', () => {
    const feeds = exporter({ FEEDS: { [join(dir, 'none.json')]: { format: 'json' }, [join(dir, 'none.xml')]: { format: 'xml' } } });
    feeds.close();
    expect(read('none.json')).toBe('[\n\n]');
    expect(read('none.xml')).toBe('<?xml version="1.0" encoding="utf-8"?>\n<items>\n</items>');
    expect(logs).toEqual([`INFO: Stored json feed (0 items) in: ${join(dir, 'none.json')}`, `INFO: Stored xml feed (0 items) in: ${join(dir, 'none.xml')}`]);
  });
});

describe('files', () => {
  it('overwrite: a JSON feed replaces the old file only when it is complete', () => {
    writeFileSync(join(dir, 'items.json'), '["old"]');
    const feeds = exporter({ FEEDS: { [join(dir, 'items.json')]: { format: 'json', overwrite: true } } });
    feeds.exportItem({ a: 1 });
    expect(read('items.json')).toBe('["old"]');
    feeds.close();
    expect(read('items.json')).toBe('[\n{"a": 1}\n]');
    expect(readdirSync(dir)).toEqual(['items.json']);
  });

  it('appending to a JSON file that has content warns, and says what to use instead', () => {
    writeFileSync(join(dir, 'items.json'), '[\n{"a": 0}\n]');
    const feeds = exporter({ FEEDS: { [join(dir, 'items.json')]: { format: 'json' } } });
    feeds.exportItem({ a: 1 });
    feeds.close();
    expect(logs[0]).toBe(
      `WARNING: Appending to a JSON file produces invalid JSON: ${join(dir, 'items.json')} already holds a feed, and a second one will follow it. Use -O to overwrite it, or append to a JSON Lines feed instead (-o ${join(dir, 'items')}.jsonl)`,
    );
    expect(read('items.json')).toBe('[\n{"a": 0}\n][\n{"a": 1}\n]');
  });

  it('appending to a new or empty JSON file, or to JSON Lines, does not warn', () => {
    writeFileSync(join(dir, 'items.jsonl'), '{"a": 0}\n');
    const feeds = exporter({ FEEDS: { [join(dir, 'new.json')]: { format: 'json' }, [join(dir, 'items.jsonl')]: { format: 'jsonlines' } } });
    feeds.exportItem({ a: 1 });
    feeds.close();
    expect(logs.filter((l) => l.startsWith('WARNING'))).toEqual([]);
    expect(read('items.jsonl')).toBe('{"a": 0}\n{"a": 1}\n');
  });

  it('a path in a missing folder fails at once, naming the folder, and leaves no file behind', () => {
    const good = join(dir, 'good.json');
    writeFileSync(join(dir, 'old.csv'), 'kept');
    const feeds = { [good]: { format: 'json', overwrite: true }, [join(dir, 'old.csv')]: { format: 'csv', overwrite: true }, [join(dir, 'nope', 'items.json')]: { format: 'json' } };
    expect(() => exporter({ FEEDS: feeds })).toThrow(
      `Cannot write the feed '${join(dir, 'nope', 'items.json')}': the folder '${join(dir, 'nope')}' does not exist (check that the folder exists and is writable, or choose another -o/-O path)`,
    );
    expect(existsSync(good)).toBe(false);
    expect(readdirSync(dir)).toEqual(['old.csv']);
    expect(read('old.csv')).toBe('kept');
  });

  it('a file:// URI is a local path', () => {
    const feeds = exporter({ FEEDS: { [`file://${join(dir, 'uri.jsonl')}`]: { format: 'jsonlines' } } });
    feeds.exportItem({ a: 1 });
    feeds.close();
    expect(read('uri.jsonl')).toBe('{"a": 1}\n');
  });

  it.each([
    [{ 'items.txt': {} }, "Cannot tell the format of the feed 'items.txt': give it a format (json, jsonlines, csv, xml) or an extension (.json, .jsonl, .jl, .csv, .xml)"],
    [{ 'items.json': { format: 'yaml' } }, "Unknown feed format 'yaml' for the feed 'items.json': use one of json, jsonlines, jsonl, jl, csv, xml"],
    [{ 'items.json': { format: 'json', encoding: 'koi8-r' } }, "Unknown encoding 'koi8-r' for the feed 'items.json': use utf-8, latin-1 or ascii"],
    [{ 'gs://bucket/items.json': { format: 'json' } }, "Unsupported feed storage 'gs://bucket/items.json': seine writes feeds to local files (a path or file:// URI), to standard output (-), and to s3://, ftp://, ftps:// and sftp:// URIs"],
    [{ 's3://bucket/': { format: 'json' } }, "Cannot deliver the feed 's3://bucket/': the feed URI s3://bucket/ names no file: end it with the file's name, e.g. s3://…/items.jsonl"],
    [{ 'items.json.gz': { format: 'json', postprocessing: ['ZipPlugin'] } }, 'Unknown post-processing plugin "ZipPlugin" for the feed \'items.json.gz\': use GzipPlugin, LZMAPlugin, Bz2Plugin, BrotliPlugin, ZstdPlugin or a plugin class (constructor(file, feedOptions) with write and close)'],
    [{ 'items.json.gz': { format: 'json', postprocessing: ['GzipPlugin'], gzip_level: 5 } }, "Unknown feed option 'gzip_level' for the feed 'items.json.gz': the post-processing options are gzip_compresslevel, gzip_mtime, gzip_filename, lzma_format, lzma_check, lzma_preset, lzma_filters, bz2_compresslevel, brotli_quality, brotli_lgwin, brotli_mode, zstd_compresslevel, zstd_chunk_size"],
    [{ 'items.json.gz': { format: 'json', postprocessing: ['GzipPlugin'], gzip_compresslevel: 10 } }, 'The feed option gzip_compresslevel must be an integer from 0 to 9, not 10'],
    [{ 'items.xz': { format: 'json', postprocessing: ['LZMAPlugin'], lzma_format: 'raw' } }, "The feed option lzma_format 'raw' needs lzma_filters (a raw stream does not record them)"],
    [{ 'ftp://me:secret@127.0.0.1/': { format: 'json' } }, "Cannot deliver the feed 'ftp://me:***@127.0.0.1/': the feed URI ftp://me:***@127.0.0.1/ names no file: end it with the file's name, e.g. ftp://…/items.jsonl"],
    [{ '-': { format: 'jsonlines', postprocessing: ['GzipPlugin'] } }, "The feed '-' (standard output) cannot be post-processed: write it to a file, e.g. -o items.jsonl.gz with postprocessing in FEEDS, or pipe it through gzip"],
    [{ 'ftp://me:secret@127.0.0.1/out/%(name)s': { format: 'json', postprocessing: ['GzipPlugin'], gzip_mtime: -1 } }, 'The feed option gzip_mtime must be a time in seconds since 1970 (a number from 0 to 4294967295), not -1'],
    [{ '%(nope)s.json': { format: 'json' } }, "The feed path '%(nope)s.json' uses %(nope)s, but the spider has no attribute 'nope': use %(name)s, %(time)s, %(batch_time)s, %(batch_id)d or a spider attribute"],
  ])('refuses FEEDS %j before anything is written', (feedsSetting, message) => {
    expect(() => exporter({ FEEDS: feedsSetting })).toThrow(message);
  });
});

/**
 * What Scrapy 2.8.0 (Debian's python3-scrapy) writes for a run that scrapes
 * nothing, recorded with `scrapy runspider empty.py -O out.json -O out.jsonl
 * -O out.csv -O out.xml` (and the same over files that held `["old"]\n`):
 * with its default FEED_STORE_EMPTY = False every file is 0 bytes, an old
 * file included (it is truncated), and no `Stored` line is logged. With
 * `-s FEED_STORE_EMPTY=True`: out.json `[\n\n]` (`[]` with indent null),
 * out.jsonl and out.csv 0 bytes (even with FEED_EXPORT_FIELDS: the CSV header
 * is written with the first item), out.xml
 * `<?xml version="1.0" encoding="utf-8"?>\n<items>\n</items>`
 * (`<items></items>` with indent null), each with `Stored … (0 items)`.
 */
describe('empty feeds, byte for byte as Scrapy 2.8', () => {
  const FORMATS = [['json', 'json'], ['jsonl', 'jsonlines'], ['csv', 'csv'], ['xml', 'xml']] as const;
  const feedsFor = (prefix: string) =>
    Object.fromEntries(FORMATS.map(([ext, format]) => [join(dir, `${prefix}.${ext}`), { format, overwrite: true }]));

  it('FEED_STORE_EMPTY off (Scrapy 2.8\'s default): -O leaves 0 bytes in every format, also over an earlier file', () => {
    for (const [ext] of FORMATS) writeFileSync(join(dir, `old.${ext}`), '["old"]\n');
    exporter({ FEED_STORE_EMPTY: false, FEED_EXPORT_FIELDS: ['a', 'b'], FEEDS: { ...feedsFor('new'), ...feedsFor('old') } }).close();
    for (const [ext] of FORMATS) {
      expect(read(`new.${ext}`)).toBe('');
      expect(read(`old.${ext}`)).toBe('');
    }
    expect(logs).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.includes('seine-tmp'))).toEqual([]);
  });

  it("FEED_STORE_EMPTY on: Scrapy's empty document in each format, over an earlier file too", () => {
    for (const [ext] of FORMATS) writeFileSync(join(dir, `old.${ext}`), '["old"]\n');
    exporter({
      FEED_STORE_EMPTY: true,
      FEED_EXPORT_FIELDS: ['a', 'b'],
      FEEDS: { ...feedsFor('new'), ...feedsFor('old'), [join(dir, 'flat.json')]: { format: 'json', indent: null }, [join(dir, 'flat.xml')]: { format: 'xml', indent: null } },
    }).close();
    for (const prefix of ['new', 'old']) {
      expect(read(`${prefix}.json`)).toBe('[\n\n]');
      expect(read(`${prefix}.jsonl`)).toBe('');
      expect(read(`${prefix}.csv`)).toBe('');
      expect(read(`${prefix}.xml`)).toBe('<?xml version="1.0" encoding="utf-8"?>\n<items>\n</items>');
    }
    expect(read('flat.json')).toBe('[]');
    expect(read('flat.xml')).toBe('<?xml version="1.0" encoding="utf-8"?>\n<items></items>');
    expect(logs).toHaveLength(10);
    expect(logs[0]).toBe(`INFO: Stored json feed (0 items) in: ${join(dir, 'new.json')}`);
  });
});

/** The pid of a process that has exited: a temporary file named after it belongs to nobody. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(child.status).toBe(0);
  return child.pid;
}

describe('temporary files left by killed runs', () => {
  it("opening a feed removes its target's temporary files whose process is gone, in one INFO line, and keeps a live process's", () => {
    const dead = deadPid();
    const live = process.ppid; // the jest process that started this worker: alive
    const target = join(dir, 'items.json');
    writeFileSync(target, '["old"]');
    const stale = `.items.json.${dead}.seine-tmp`;
    const alive = `.items.json.${live}.seine-tmp`;
    const otherTarget = `.other.json.${dead}.seine-tmp`;
    for (const name of [stale, alive, otherTarget, '.items.json.x.seine-tmp']) writeFileSync(join(dir, name), '[\n{"half": ');
    const feeds = exporter({ FEEDS: { [target]: { format: 'json', overwrite: true } } });
    expect(logs).toEqual([`INFO: Removed a temporary file that an interrupted run (process ${dead}, no longer running) left for ${target}: ${join(dir, stale)}`]);
    feeds.exportItem({ a: 1 });
    feeds.close();
    expect(read('items.json')).toBe('[\n{"a": 1}\n]');
    expect(readdirSync(dir).sort()).toEqual([alive, '.items.json.x.seine-tmp', otherTarget, 'items.json'].sort());
    expect(read(alive)).toBe('[\n{"half": ');
  });

  it('an appending feed cleans up after its target too, listing every removed file in its one line', () => {
    const [a, b] = [deadPid(), deadPid()];
    const target = join(dir, 'items.jsonl');
    for (const pid of [a, b]) writeFileSync(join(dir, `.items.jsonl.${pid}.seine-tmp`), 'x');
    const feeds = exporter({ FEED_STORE_EMPTY: false, FEEDS: { [target]: { format: 'jsonlines' } } });
    feeds.close();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(new RegExp(`^INFO: Removed 2 temporary files that interrupted runs \\(processes (${a}, ${b}|${b}, ${a}), no longer running\\) left for ${target}: `));
    expect(readdirSync(dir)).toEqual(['items.jsonl']);
  });
});

describe('failures while crawling and closing', () => {
  it('close stores the other feeds when folders were removed during the crawl, logs one ERROR for each, and does not throw', () => {
    mkdirSync(join(dir, 'gone'));
    mkdirSync(join(dir, 'gone2'));
    const json = join(dir, 'gone', 'items.json');
    const jsonl = join(dir, 'gone2', 'items.jsonl');
    const csv = join(dir, 'items.csv');
    const feeds = exporter({ FEEDS: { [json]: { format: 'json', overwrite: true }, [csv]: { format: 'csv', overwrite: true }, [jsonl]: { format: 'jsonlines' } } });
    feeds.exportItem({ a: 1 });
    rmSync(join(dir, 'gone'), { recursive: true });
    rmSync(join(dir, 'gone2'), { recursive: true });
    feeds.exportItem({ a: 2 });
    expect(() => feeds.close()).not.toThrow();
    expect(read('items.csv')).toBe('a\r\n1\r\n2\r\n');
    expect(logs).toEqual([
      `ERROR: Error storing json feed (2 items) in: ${json}: the folder '${join(dir, 'gone')}' was removed during the crawl`,
      `INFO: Stored csv feed (2 items) in: ${csv}`,
      `ERROR: Error storing jsonlines feed (2 items) in: ${jsonl}: the folder '${join(dir, 'gone2')}' was removed during the crawl`,
    ]);
    expect(stats).toEqual({ 'feedexport/success_count/FileFeedStorage': 1, 'feedexport/failed_count/FileFeedStorage': 2 });
    expect(readdirSync(dir)).toEqual(['items.csv']);
  });

  it('a file removed during the crawl (its folder kept) is an ERROR at close, not a silent loss', () => {
    const feeds = exporter({ FEEDS: { [join(dir, 'items.jsonl')]: { format: 'jsonlines' }, [join(dir, 'items.csv')]: { format: 'csv' } } });
    feeds.exportItem({ a: 1 });
    rmSync(join(dir, 'items.jsonl'));
    feeds.close();
    expect(logs).toEqual([
      `ERROR: Error storing jsonlines feed (1 items) in: ${join(dir, 'items.jsonl')}: the file was removed during the crawl`,
      `INFO: Stored csv feed (1 items) in: ${join(dir, 'items.csv')}`,
    ]);
  });

  it("a FEED_EXPORTERS exporter that throws in finish: one ERROR, the other feeds stored, and the file it would replace kept whole", () => {
    class BrokenJsonExporter extends JsonExporter {
      override finish(): Buffer {
        throw new Error('cannot close\nthe array');
      }
    }
    writeFileSync(join(dir, 'items.json'), '["old"]');
    const feeds = exporter({
      FEED_EXPORTERS: { json: BrokenJsonExporter },
      FEEDS: { [join(dir, 'items.json')]: { format: 'json', overwrite: true }, [join(dir, 'items.jsonl')]: { format: 'jsonlines', overwrite: true } },
    });
    feeds.exportItem({ a: 1 });
    feeds.close();
    feeds.close();
    expect(logs).toEqual([
      `ERROR: Error storing json feed (1 items) in: ${join(dir, 'items.json')}: BrokenJsonExporter.finish() threw Error: cannot close the array`,
      `INFO: Stored jsonlines feed (1 items) in: ${join(dir, 'items.jsonl')}`,
    ]);
    expect(read('items.json')).toBe('["old"]');
    expect(read('items.jsonl')).toBe('{"a": 1}\n');
    expect(readdirSync(dir).sort()).toEqual(['items.json', 'items.jsonl']);
  });

  it('an exporter that throws on one item: one ERROR naming the feed, the other feeds still get that item, and it gets the next', () => {
    class PickyExporter extends JsonExporter {
      override exportItem(item: unknown): Buffer {
        if ((item as { bad?: boolean }).bad) throw new TypeError('no bad items');
        return super.exportItem(item);
      }
    }
    const picky = join(dir, 'items.picky');
    const feeds = exporter({
      FEED_EXPORTERS: { picky: PickyExporter },
      FEEDS: { [picky]: { format: 'picky', overwrite: true }, [join(dir, 'items.jsonl')]: { format: 'jsonlines', overwrite: true } },
    });
    for (const item of [{ n: 1 }, { n: 2, bad: true }, { n: 3 }]) feeds.exportItem(item);
    feeds.close();
    expect(logs).toEqual([
      `ERROR: Error exporting an item to the picky feed ${picky}: PickyExporter.exportItem() threw TypeError: no bad items`,
      `INFO: Stored picky feed (2 items) in: ${picky}`,
      `INFO: Stored jsonlines feed (3 items) in: ${join(dir, 'items.jsonl')}`,
    ]);
    expect(read('items.picky')).toBe('[\n{"n": 1},\n{"n": 3}\n]');
    expect(read('items.jsonl')).toBe('{"n": 1}\n{"n": 2, "bad": true}\n{"n": 3}\n');
  });

  it('a next batch that cannot be opened stops that feed only, with one ERROR', () => {
    mkdirSync(join(dir, 'batches'));
    const template = join(dir, 'batches', '%(batch_id)d.jsonl');
    const feeds = exporter({ FEEDS: { [template]: { format: 'jsonlines', batch_item_count: 1 }, [join(dir, 'all.jsonl')]: { format: 'jsonlines' } } });
    rmSync(join(dir, 'batches'), { recursive: true });
    for (const item of [{ n: 1 }, { n: 2 }]) feeds.exportItem(item);
    feeds.close();
    expect(logs).toEqual([
      `ERROR: Error storing jsonlines feed (1 items) in: ${join(dir, 'batches', '1.jsonl')}: the folder '${join(dir, 'batches')}' was removed during the crawl`,
      `ERROR: Error opening batch 2 of the jsonlines feed ${template}: the folder '${join(dir, 'batches')}' does not exist; the feed gets no more items`,
      `INFO: Stored jsonlines feed (2 items) in: ${join(dir, 'all.jsonl')}`,
    ]);
    expect(read('all.jsonl')).toBe('{"n": 1}\n{"n": 2}\n');
  });
});

describe('fileSizes and truncateFeedFiles (resuming a job)', () => {
  it('fileSizes gives each appending local feed by absolute path with its bytes now, and not the overwritten ones', () => {
    writeFileSync(join(dir, 'old.jsonl'), '{"old": 1}\n');
    const relativeCsv = relative(process.cwd(), join(dir, 'items.csv'));
    const feeds = exporter({
      FEED_STORE_EMPTY: false, // nothing is written before the first item
      FEEDS: {
        [join(dir, 'old.jsonl')]: { format: 'jsonlines' },
        [relativeCsv]: { format: 'csv' },
        [pathToFileURL(join(dir, 'items.json')).href]: { format: 'json' },
        [join(dir, 'over.jsonl')]: { format: 'jsonlines', overwrite: true },
      },
    });
    expect(feeds.fileSizes()).toEqual({ [join(dir, 'old.jsonl')]: 11, [join(dir, 'items.csv')]: 0, [join(dir, 'items.json')]: 0 });
    feeds.exportItem({ a: 1 });
    const size = (name: string) => statSync(join(dir, name)).size;
    expect(feeds.fileSizes()).toEqual({ [join(dir, 'old.jsonl')]: size('old.jsonl'), [join(dir, 'items.csv')]: size('items.csv'), [join(dir, 'items.json')]: size('items.json') });
    expect(feeds.fileSizes()[join(dir, 'old.jsonl')]).toBe(20);
    expect(feeds.fileSizes()[join(dir, 'items.csv')]).toBe(6);
    feeds.close();
    expect(feeds.fileSizes()[join(dir, 'items.json')]).toBe(size('items.json'));
    expect(read('items.json')).toBe('[\n{"a": 1}\n]');
  });

  it('truncateFeedFiles cuts each longer file back to its recorded size, and leaves shorter and missing files alone', () => {
    const feeds = exporter({ FEEDS: { [join(dir, 'a.jsonl')]: { format: 'jsonlines' }, [join(dir, 'b.csv')]: { format: 'csv' } } });
    feeds.exportItem({ n: 1 });
    const checkpoint = feeds.fileSizes();
    feeds.exportItem({ n: 2 }); // scraped after the checkpoint, by a run that was then killed
    feeds.close();
    expect(read('a.jsonl')).toBe('{"n": 1}\n{"n": 2}\n');
    const missing = join(dir, 'missing.jsonl');
    writeFileSync(join(dir, 'short.jsonl'), 'ab');
    const truncated = FeedExporter.truncateFeedFiles({ ...checkpoint, [missing]: 3, [join(dir, 'short.jsonl')]: 5 });
    expect(truncated).toEqual([join(dir, 'a.jsonl'), join(dir, 'b.csv')]);
    expect(read('a.jsonl')).toBe('{"n": 1}\n');
    expect(read('b.csv')).toBe('n\r\n1\r\n');
    expect(read('short.jsonl')).toBe('ab');
    expect(existsSync(missing)).toBe(false);
  });
});
