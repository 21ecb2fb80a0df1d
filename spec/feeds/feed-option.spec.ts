import { describe, expect, it } from '@jest/globals';
import { parseFeedOption } from '../../src/cli/feed-option.js';

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
  ])('%s', (value, expected) => {
    expect(parseFeedOption(value, true)).toEqual({ ...expected, overwrite: true });
  });

  it.each([
    ['items.txt', "Cannot tell the feed format of 'items.txt': use an extension (.json, .jsonl, .jl, .csv, .xml) or add :format, e.g. -o items.txt:jsonlines"],
    ['items.out:yaml', "Unknown feed format 'yaml' in 'items.out:yaml': use one of json, jsonlines, jsonl, jl, csv, xml after the colon, e.g. -o items.out:jsonlines"],
  ])('refuses %s', (value, message) => {
    expect(() => parseFeedOption(value)).toThrow(message);
  });
});
