/**
 * Properties of the feed exporters (src/feeds/exporters): for any JSON-able
 * items, what JsonExporter and JsonLinesExporter write reads back equal with
 * JSON.parse; CsvExporter's file reads back with csv-parse to the header and
 * the string cells; XmlExporter's file is well-formed XML (checked by a strict
 * reader of the subset it writes, below) that gives back every string value.
 */
import { describe, expect, it } from '@jest/globals';
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { CsvExporter, JsonExporter, JsonLinesExporter, XmlExporter, type ExporterOptions, type ItemExporter } from '../../src/feeds/exporters/index.js';
import { configureFuzz, runs } from './fuzz-config.js';

configureFuzz({ numRuns: 300 });

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Well-formed text (no lone surrogates: a UTF-8 file cannot hold one), with the characters each format must escape.
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: fc.constantFrom(...'",;\r\n\t\\\'<>&] x\u0000\u007f\u2028é😀'.split(/(?:)/u)), maxLength: 10 }),
);
const key = fc.oneof({ weight: 5, arbitrary: text }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', '0', '10', 'a b') });
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 0.1, 1e21, 1e-7, 2 ** 53, -(2 ** 53) - 2));

/** An object with these entries as own properties (`{ __proto__: 1 }` as JSON.parse makes it, not a prototype). */
function objectOf(entries: ReadonlyArray<readonly [string, Json]>): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}
const entries = <T>(value: fc.Arbitrary<T>, maxLength: number): fc.Arbitrary<Array<[string, T]>> =>
  fc.uniqueArray(fc.tuple(key, value), { maxLength, selector: ([k]) => k });

const { json } = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), number, text,
    fc.array(tie('json'), { maxLength: 4 }),
    entries(tie('json'), 4).map(objectOf),
  ),
}));
const jsonItems = fc.array(entries(json, 5).map(objectOf), { maxLength: 4 });

/**
 * The items with -0 as 0: a safe integer is written as an int (src/python/value-repr.ts), and -0 is one, so
 * it reads back as 0 (Python's json.dumps(-0.0) would write -0.0; JavaScript cannot tell -0.0 from an int -0).
 */
function withoutNegativeZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (value !== null && typeof value === 'object') return objectOf(Object.entries(value).map(([k, v]) => [k, withoutNegativeZero(v) as Json] as const));
  return value;
}

function exportAll(exporter: ItemExporter, items: readonly unknown[]): string {
  return Buffer.concat([exporter.start(), ...items.map((item) => exporter.exportItem(item)), exporter.finish()]).toString('utf8');
}
const options = (extra: Partial<ExporterOptions> = {}): ExporterOptions => ({ encoding: null, fields: null, indent: 0, feed: 'fuzz', ...extra });
const indent = fc.constantFrom(null, 0, 2);
const encoding = fc.constantFrom(null, 'utf-8');

describe('JSON and JSON Lines exports read back equal', () => {
  it('JsonExporter: JSON.parse of the file is the items, with any indent and encoding', () => {
    fc.assert(
      fc.property(jsonItems, indent, encoding, (items, ind, enc) => {
        const written = exportAll(new JsonExporter(options({ indent: ind, encoding: enc })), items);
        expect(JSON.parse(written)).toEqual(withoutNegativeZero(items));
      }),
      { numRuns: runs(500) },
    );
  });

  it('JsonLinesExporter: each line, parsed, is one item', () => {
    fc.assert(
      fc.property(jsonItems, encoding, (items, enc) => {
        const written = exportAll(new JsonLinesExporter(options({ encoding: enc })), items);
        const lines = written.split('\n');
        expect(lines.pop()).toBe('');
        expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(withoutNegativeZero(items));
      }),
      { numRuns: runs(500) },
    );
  });
});

describe('CSV export reads back with csv-parse', () => {
  it('gives the header and every string cell, for items sharing their fields', () => {
    const fieldName = fc.string({ unit: fc.constantFrom(...'ab ,"\r\n'.split('')), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fc.uniqueArray(fieldName, { minLength: 1, maxLength: 4 }), fc.array(fc.array(text, { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        (fields, rows) => {
          const items = rows.map((row) => objectOf(fields.map((field, i) => [field, row[i]!] as const)));
          const written = exportAll(new CsvExporter(options()), items);
          const parsed = parseCsv(written, { relax_quotes: false }) as string[][];
          expect(parsed).toEqual([fields, ...rows.map((row) => row.slice(0, fields.length))]);
        }),
      { numRuns: runs(500) },
    );
  });
});

// A strict reader of the XML the exporter writes: the declaration, then elements without attributes, text
// and character or entity references. It throws on anything not well-formed.
interface XmlElement {
  name: string;
  children: Array<XmlElement | string>;
}
const XML_CHAR = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
const XML_NAME = /^[A-Za-z_:\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd][A-Za-z_:.\-0-9\u00b7\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u037d\u037f-\u1fff\u200c\u200d\u203f\u2040\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd]*$/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function readXml(source: string): XmlElement {
  if (!XML_CHAR.test(source)) throw new Error('a character XML does not allow');
  const declaration = /^<\?xml version="1\.0" encoding="[A-Za-z0-9._-]+"\?>/.exec(source);
  if (declaration === null) throw new Error('no XML declaration');
  let at = declaration[0].length;
  const skipSpace = (): void => {
    while (at < source.length && ' \t\r\n'.includes(source[at]!)) at++;
  };
  const element = (): XmlElement => {
    const open = /^<([^\s<>/]+)\s*>/.exec(source.slice(at));
    if (open === null || !XML_NAME.test(open[1]!)) throw new Error(`bad start tag at ${at}`);
    at += open[0].length;
    const node: XmlElement = { name: open[1]!, children: [] };
    for (;;) {
      if (at >= source.length) throw new Error(`<${node.name}> is not closed`);
      if (source.startsWith('</', at)) {
        const close = /^<\/([^\s<>]+)\s*>/.exec(source.slice(at));
        if (close === null || close[1] !== node.name) throw new Error(`bad end tag at ${at} for <${node.name}>`);
        at += close[0].length;
        return node;
      }
      if (source[at] === '<') {
        node.children.push(element());
        continue;
      }
      let chars = '';
      while (at < source.length && source[at] !== '<') {
        if (source.startsWith(']]>', at)) throw new Error("']]>' in text");
        if (source[at] === '&') {
          const ref = /^&(?:([A-Za-z]+)|#([0-9]+)|#x([0-9A-Fa-f]+));/.exec(source.slice(at));
          if (ref === null) throw new Error(`bare '&' at ${at}`);
          let value: string;
          if (ref[1] !== undefined) {
            if (ENTITIES[ref[1]] === undefined) throw new Error(`undefined entity &${ref[1]};`);
            value = ENTITIES[ref[1]]!;
          } else {
            value = String.fromCodePoint(ref[2] !== undefined ? Number(ref[2]) : parseInt(ref[3]!, 16));
            if (!XML_CHAR.test(value)) throw new Error('a reference to a character XML does not allow');
          }
          chars += value;
          at += ref[0].length;
        } else {
          chars += source[at];
          at++;
        }
      }
      // XML parsers read CR and CRLF in text as LF (XML 1.0 §2.11).
      node.children.push(chars.replace(/\r\n?/g, '\n'));
    }
  };
  skipSpace();
  const root = element();
  skipSpace();
  if (at !== source.length) throw new Error('content after the root element');
  return root;
}

const elements = (node: XmlElement): XmlElement[] => node.children.filter((c): c is XmlElement => typeof c !== 'string');
const textOf = (node: XmlElement): string => node.children.filter((c): c is string => typeof c === 'string').join('');

describe('XML export', () => {
  // Values XML can hold: Char of XML 1.0 (no C0 controls but tab and newline), CR left out (read back as LF).
  const xmlText = text.map((t) => t.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\r\ufffe\uffff]/g, ''));
  const xmlName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9._-]{0,6}$/);

  it('is well-formed and gives back every field name and string value, in order, with any indent', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.tuple(xmlName, xmlText), { maxLength: 4, selector: ([k]) => k }), { maxLength: 4 }), indent, (items, ind) => {
        const written = exportAll(new XmlExporter(options({ indent: ind })), items.map(objectOf));
        const root = readXml(written);
        expect(root.name).toBe('items');
        const got = elements(root).map((item) => {
          expect(item.name).toBe('item');
          return elements(item).map((field) => [field.name, textOf(field)]);
        });
        expect(got).toEqual(items);
      }),
      { numRuns: runs(500) },
    );
  });

  it('is well-formed for any JSON-able item with XML names, lists as <value> elements', () => {
    const { xmlJson } = fc.letrec<{ xmlJson: Json }>((tie) => ({
      xmlJson: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant(null), fc.boolean(), number, xmlText,
        fc.array(tie('xmlJson'), { maxLength: 3 }),
        fc.uniqueArray(fc.tuple(xmlName, tie('xmlJson')), { maxLength: 3, selector: ([k]) => k }).map(objectOf),
      ),
    }));
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.tuple(xmlName, xmlJson), { maxLength: 4, selector: ([k]) => k }).map(objectOf), { maxLength: 3 }), indent, (items, ind) => {
        const root = readXml(exportAll(new XmlExporter(options({ indent: ind })), items));
        expect(elements(root).length).toBe(items.length);
      }),
      { numRuns: runs(400) },
    );
  });
});
