/**
 * FeedExporter with FEEDS-style options, on real files in a temporary
 * folder: several feeds at once, batches, store_empty, filters, path
 * placeholders, the append warning, and the errors raised before a crawl.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Settings } from '../../src/settings/index.js';
import { FeedExporter, resolveFeeds, type FeedSpec } from '../../src/feeds/index.js';

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
    logger: { info: (m: string) => logs.push(`INFO: ${m}`), warning: (m: string) => logs.push(`WARNING: ${m}`) },
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
  it('off (the default): a feed without items is an empty file, and no Stored line', () => {
    const feeds = exporter({ FEEDS: { [join(dir, 'none.json')]: { format: 'json' } } });
    feeds.close();
    expect(read('none.json')).toBe('');
    expect(logs).toEqual([]);
  });

  it('on: an empty document, and a Stored line with 0 items', () => {
    const feeds = exporter({ FEED_STORE_EMPTY: true, FEEDS: { [join(dir, 'none.json')]: { format: 'json' }, [join(dir, 'none.xml')]: { format: 'xml' } } });
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
    [{ 's3://bucket/items.json': { format: 'json' } }, "Unsupported feed storage 's3://bucket/items.json': seine writes feeds to local files (a path or file:// URI) and to standard output (-)"],
    [{ '%(nope)s.json': { format: 'json' } }, "The feed path '%(nope)s.json' uses %(nope)s, but the spider has no attribute 'nope': use %(name)s, %(time)s, %(batch_time)s, %(batch_id)d or a spider attribute"],
  ])('refuses FEEDS %j before anything is written', (feedsSetting, message) => {
    expect(() => exporter({ FEEDS: feedsSetting })).toThrow(message);
  });
});
