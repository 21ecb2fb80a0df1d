/**
 * The four exporters against Scrapy 2.8's own output for the same items
 * (spec/fixtures/feeds, recorded by scripts/record-feed-fixtures.py): nested
 * lists and dicts, non-ASCII text, None, booleans, quotes and newlines.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXPORTERS, type ExporterOptions } from '../../src/feeds/exporters/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/feeds/', import.meta.url));
const ITEMS = JSON.parse(readFileSync(FIXTURES + 'items.input.json', 'utf8')) as unknown[];

function exported(format: string, options: Partial<ExporterOptions>, items: readonly unknown[] = ITEMS): Buffer {
  const exporter = new EXPORTERS[format]!({ encoding: null, fields: null, indent: 0, feed: 'test', ...options });
  return Buffer.concat([exporter.start(), ...items.map((item) => exporter.exportItem(item)), exporter.finish()]);
}

const fixture = (name: string): Buffer => readFileSync(FIXTURES + name);

describe('exporters write what Scrapy 2.8 writes', () => {
  it.each([
    ['default.json', 'json', {}],
    ['indent2-utf8.json', 'json', { indent: 2, encoding: 'utf-8' }],
    ['fields.json', 'json', { fields: ['text', 'tags', 'missing'] }],
    ['default.jsonl', 'jsonlines', {}],
    ['utf8.jsonl', 'jsonlines', { encoding: 'utf-8' }],
    ['default.csv', 'csv', {}],
    ['fields.csv', 'csv', { fields: ['author', 'missing', 'tags'] }],
    ['latin1.csv', 'csv', { encoding: 'latin-1' }],
    ['default.xml', 'xml', {}],
    ['indent2.xml', 'xml', { indent: 2 }],
    ['latin1.xml', 'xml', { encoding: 'latin-1' }],
  ] as const)('%s', (name, format, options) => {
    expect(exported(format, options).toString('latin1')).toBe(fixture(name).toString('latin1'));
  });

  it.each([
    ['empty.json', 'json'],
    ['empty.xml', 'xml'],
  ])('%s: an empty feed (store_empty)', (name, format) => {
    expect(exported(format, {}, []).toString()).toBe(fixture(name).toString());
  });
});

describe('exporters treat class instances like plain objects', () => {
  class Quote {
    text = 'To be';
    author?: string;
    tags: string[] = ['life'];
    constructor(author?: string) {
      if (author !== undefined) this.author = author;
    }
    describe(): string {
      return this.text;
    }
  }

  it('JSON Lines: own fields in declaration order, an unset field left out', () => {
    expect(exported('jsonlines', {}, [new Quote('Anon'), new Quote()]).toString()).toBe(
      '{"text": "To be", "author": "Anon", "tags": ["life"]}\n{"text": "To be", "tags": ["life"]}\n',
    );
  });

  it('CSV: a declared but unset field is still a column (Scrapy: declared Item fields)', () => {
    expect(exported('csv', {}, [new Quote(), new Quote('Anon')]).toString()).toBe('text,author,tags\r\nTo be,,life\r\nTo be,Anon,life\r\n');
  });

  it('maps JavaScript values onto Python shapes: Set, Map, Date, nested instances, undefined, bigint', () => {
    const item = {
      set: new Set(['a', 'b']),
      map: new Map([['k', 1]]),
      when: new Date(2024, 0, 2, 3, 4, 5),
      inner: new Quote('X'),
      gone: undefined,
      list: [undefined, 0.1, 1e21, 2n ** 64n],
    };
    expect(exported('jsonlines', {}, [item]).toString()).toBe(
      '{"set": ["a", "b"], "map": {"k": 1}, "when": "2024-01-02 03:04:05", "inner": {"text": "To be", "author": "X", "tags": ["life"]}, "list": [null, 0.1, 1e+21, 18446744073709551616]}\n',
    );
  });

  it('JSON with indent 4 and a field mapping renames fields', () => {
    expect(exported('json', { indent: 4, fields: { text: 'quote', author: 'by' } }, [{ author: 'A', text: 'T', x: 1 }]).toString()).toBe(
      '[\n{\n    "quote": "T",\n    "by": "A"\n}\n]',
    );
  });

  it('JSON with indent null (FEED_EXPORT_INDENT=None) writes no newlines', () => {
    expect(exported('json', { indent: null }, [{ a: 1 }, { a: 2 }]).toString()).toBe('[{"a": 1},{"a": 2}]');
  });

  it('CSV: a row of one empty cell is quoted, as csv.writer does', () => {
    expect(exported('csv', {}, [{ a: 'x' }, { a: '' }]).toString()).toBe('a\r\nx\r\n""\r\n');
  });

  // Found by spec/fuzz/feeds.spec.ts; the expected bytes are Scrapy 2.8's CsvItemExporter's.
  it("CSV: a cell holding a bare '\\n' or '\\r' is quoted, as csv.writer does ({ '\\n': '', a: '' })", () => {
    expect(exported('csv', {}, [{ '\n': '', a: '' }]).toString()).toBe('"\n",a\r\n,\r\n');
    expect(exported('csv', {}, [{ 'a\r': ' x', b: 'y\r' }]).toString()).toBe('"a\r",b\r\n x,"y\r"\r\n');
  });

  // Found by spec/fuzz/feeds.spec.ts: the assignment set the exported dict's prototype, so the field vanished.
  it("keeps a nested '__proto__' field (JSON.parse('{\"__proto__\": null}')) and a Map key '__proto__'", () => {
    const item = { '': [JSON.parse('{"__proto__": null}') as unknown], m: new Map([['__proto__', 1]]) };
    expect(exported('jsonlines', {}, [item]).toString()).toBe('{"": [{"__proto__": null}], "m": {"__proto__": 1}}\n');
  });
});
