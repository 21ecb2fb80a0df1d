import { lazyPackage } from '../../errors/lazy-package.js';
import { itemFieldNames, type ExportValue } from '../export-value.js';
import { encodeText, feedEncoding, type FeedEncoding } from '../encoding.js';
import { pythonStr } from '../../python/value-repr.js';
import { serializedFields, type ExporterOptions, type FieldsToExport, type ItemExporter } from './item-exporter.js';

// csv-stringify is loaded by the first CSV feed (its CommonJS build, synchronously): ~15 ms of start-up that a crawl
// without CSV never pays. The exporter loads it when the feed opens, so a missing package stops the crawl before it
// starts instead of failing every item.
const loadStringify = lazyPackage<typeof import('csv-stringify/sync')>('csv-stringify/sync', 'CSV feeds');
function stringifyCsv(input: unknown[][], options: import('csv-stringify/sync').Options): string {
  return loadStringify().stringify(input, options);
}

/** CsvItemExporter's `join_multivalued`: a list of strings becomes one `a,b` cell; any other list stays a list (its repr). */
function joinIfNeeded(value: ExportValue): ExportValue {
  return Array.isArray(value) && value.every((inner) => typeof inner === 'string') ? value.join(',') : value;
}

/** csv.writer's cell: None is empty, other non-strings are str()'d. */
function cell(value: ExportValue): string {
  return value === null ? '' : pythonStr(value);
}

/**
 * Scrapy's CsvItemExporter with csv.writer's excel dialect: a header row,
 * `\r\n` line ends, quotes only where needed. The columns are `fields`
 * (FEED_EXPORT_FIELDS / the feed's `fields`), else the first item's fields
 * in their order, kept for the whole file: a later item's extra fields are
 * not written and its missing ones are empty cells.
 */
export class CsvExporter implements ItemExporter {
  readonly #encoding: FeedEncoding;
  #fields: FieldsToExport | null;
  #headerWritten = false;

  constructor(options: ExporterOptions) {
    loadStringify();
    this.#encoding = feedEncoding(options.encoding ?? 'utf-8', options.feed);
    this.#fields = options.fields;
  }

  #row(cells: string[]): string {
    // csv.writer (Python 3.11) quotes a row made of one empty cell, or it would read back as no row.
    if (cells.length === 1 && cells[0] === '') return '""\r\n';
    // csv.writer quotes a cell holding a CR or LF alone too (either is in its line terminator); csv-stringify only quotes
    // one holding the whole record delimiter, so a bare '\n' in a cell would start a new row (spec/fuzz/feeds.spec.ts).
    return stringifyCsv([cells], { record_delimiter: '\r\n', quote: '"', escape: '"', quoted_match: /[\r\n]/ });
  }

  start(): Buffer {
    return Buffer.alloc(0);
  }

  exportItem(item: unknown): Buffer {
    let fields = this.#fields;
    if (!this.#headerWritten && (fields === null || (Array.isArray(fields) && fields.length === 0))) fields = itemFieldNames(item, true);
    // The row before the header: an item that throws (a circular one) leaves the header to the next item.
    const row = this.#row(serializedFields(item, fields, true, joinIfNeeded, '').map(([, value]) => cell(value)));
    if (this.#headerWritten) return encodeText(row, this.#encoding);
    this.#headerWritten = true;
    this.#fields = fields;
    const names = Array.isArray(fields) ? [...(fields as readonly string[])] : Object.values(fields as Record<string, string>);
    return encodeText(this.#row(names) + row, this.#encoding);
  }

  finish(): Buffer {
    return Buffer.alloc(0);
  }
}
