/**
 * The exporter contract, after Scrapy's BaseItemExporter: `start()` once
 * before the first item (or at open, with store_empty), `exportItem()` per
 * item, `finish()` once at close. Each returns the bytes to append, so an
 * exporter is a pure formatter and the feed slot owns the file. A project's
 * own exporters (FEED_EXPORTERS) implement the same interface.
 */
import { hasField, itemFieldNames, toExportValue, type ExportValue } from '../export-value.js';

export interface ItemExporter {
  start(): Buffer;
  exportItem(item: unknown): Buffer;
  finish(): Buffer;
}

/** Which fields to write: a list of names, or item field → output name (Scrapy's dict form). */
export type FieldsToExport = readonly string[] | Readonly<Record<string, string>>;

export interface ExporterOptions {
  /** The feed's `encoding` (FEED_EXPORT_ENCODING); null: the format's default (UTF-8). */
  encoding: string | null;
  /** The feed's `fields` (FEED_EXPORT_FIELDS); null: every field of each item. */
  fields: FieldsToExport | null;
  /** The feed's `indent` (FEED_EXPORT_INDENT). */
  indent: number | null;
  /** The feed's name in messages. */
  feed: string;
}

/** What FEED_EXPORTERS maps a format to: a class built once per feed file (each batch gets a new instance). */
export type ItemExporterClass = new (options: ExporterOptions) => ItemExporter;

/**
 * BaseItemExporter._get_serialized_fields: (output name, value) pairs. Without
 * `fields`, the item's set fields in their order; with them, those the item
 * has (or all of them, `defaultValue` for the missing, with `includeEmpty`).
 */
export function serializedFields(
  item: unknown,
  fields: FieldsToExport | null,
  includeEmpty: boolean,
  serialize: (value: ExportValue) => ExportValue = (value) => value,
  defaultValue: ExportValue = null,
): Array<[string, ExportValue]> {
  const pairs: Array<[string, string]> =
    fields === null
      ? itemFieldNames(item, includeEmpty).map((name) => [name, name])
      : Array.isArray(fields)
        ? (fields as readonly string[]).map((name) => [name, name])
        : Object.entries(fields as Record<string, string>);
  const out: Array<[string, ExportValue]> = [];
  for (const [itemField, outputField] of pairs) {
    if (hasField(item, itemField)) {
      out.push([outputField, serialize(toExportValue((item as Record<string, unknown>)[itemField], itemField))]);
    } else if (includeEmpty) {
      out.push([outputField, defaultValue]);
    }
  }
  return out;
}
