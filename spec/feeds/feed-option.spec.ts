import { describe, expect, it } from '@jest/globals';
import { FeedOptionError, parseFeedOption } from '../../src/cli/feed-option.js';
import { resolveFeed } from '../../src/feeds/feed-settings.js';
import { Settings } from '../../src/settings/index.js';

describe('-o / -O values', () => {
  it.each([
    ['items.json', { path: 'items.json', format: 'json' }],
    ['items.JSONL', { path: 'items.JSONL', format: 'jsonlines' }],
    ['items.jl', { path: 'items.jl', format: 'jsonlines' }],
    ['out/items.csv', { path: 'out/items.csv', format: 'csv' }],
    ['items.xml', { path: 'items.xml', format: 'xml' }],
    ['items.data:csv', { path: 'items.data', format: 'csv' }],
    ['items.json:jsonlines', { path: 'items.json', format: 'jsonlines' }],
    ['-', { path: '-', format: 'jsonlines' }],
    ['-:json', { path: '-', format: 'json' }],
    ['file:///tmp/items.json', { path: 'file:///tmp/items.json', format: 'json' }],
    // Not known yet: the crawl's FEED_EXPORTERS decide (resolveFeed, below).
    ['items.txt', { path: 'items.txt' }],
    ['items.out:yaml', { path: 'items.out', format: 'yaml' }],
  ])('%s', (value, expected) => {
    expect(parseFeedOption(value, true)).toEqual({ ...expected, overwrite: true, option: value });
  });

  const settings = (values: Record<string, unknown> = {}): Settings => new Settings(values);
  class TextExporter {
    start = (): Buffer => Buffer.alloc(0);
    exportItem = (item: unknown): Buffer => Buffer.from(`${JSON.stringify(item)}\n`);
    finish = (): Buffer => Buffer.alloc(0);
  }

  it.each([
    [{}, 'items.txt', "Cannot tell the feed format of 'items.txt': use an extension (.json, .jsonl, .jl, .csv, .xml) or add :format, e.g. -o items.txt:jsonlines"],
    [{}, 'items.out:yaml', "Unknown feed format 'yaml' in 'items.out:yaml': use one of json, jsonlines, jsonl, jl, csv, xml after the colon, e.g. -o items.out:jsonlines"],
    [{ FEED_EXPORTERS: { txt: TextExporter } }, 'items', "Cannot tell the feed format of 'items': use an extension (.json, .jsonl, .jl, .csv, .xml, .txt) or add :format, e.g. -o items:jsonlines"],
    [{ FEED_EXPORTERS: { txt: TextExporter } }, 'items.out:yaml', "Unknown feed format 'yaml' in 'items.out:yaml': use one of json, jsonlines, jsonl, jl, csv, xml, txt after the colon, e.g. -o items.out:jsonlines"],
    [{ FEED_EXPORTERS: { csv: null } }, 'items.csv', "The feed format 'csv' in 'items.csv' is disabled (FEED_EXPORTERS sets it to null): use one of json, jsonlines, jsonl, jl, xml"],
  ])('with %j, refuses -o %s when the crawl starts', (values, value, message) => {
    const resolve = (): unknown => resolveFeed(parseFeedOption(value), settings(values));
    expect(resolve).toThrow(FeedOptionError);
    expect(resolve).toThrow(message);
  });

  it("accepts a FEED_EXPORTERS format as a suffix or as the file's extension", () => {
    const values = { FEED_EXPORTERS: { txt: TextExporter } };
    expect(resolveFeed(parseFeedOption('items.txt'), settings(values))).toMatchObject({ uri: 'items.txt', format: 'txt', exporter: TextExporter });
    expect(resolveFeed(parseFeedOption('items.out:txt'), settings(values))).toMatchObject({ uri: 'items.out', format: 'txt', exporter: TextExporter });
  });
});
