import { CsvExporter } from './csv.js';
import { JsonExporter, JsonLinesExporter } from './json.js';
import { XmlExporter } from './xml.js';
import type { ItemExporterClass } from './item-exporter.js';

export { CsvExporter, JsonExporter, JsonLinesExporter, XmlExporter };
export { serializedFields, type ExporterOptions, type FieldsToExport, type ItemExporter, type ItemExporterClass } from './item-exporter.js';

/** The built-in exporters by the names FEED_EXPORTERS_BASE (and a user's FEED_EXPORTERS) give them: Scrapy's class names. */
export const EXPORTER_CLASSES: Readonly<Record<string, ItemExporterClass>> = {
  JsonItemExporter: JsonExporter,
  JsonLinesItemExporter: JsonLinesExporter,
  CsvItemExporter: CsvExporter,
  XmlItemExporter: XmlExporter,
};

/** FEED_EXPORTERS_BASE resolved: the format names Scrapy knows, and their exporters. */
export const EXPORTERS: Readonly<Record<string, ItemExporterClass>> = {
  json: JsonExporter,
  jsonlines: JsonLinesExporter,
  jsonl: JsonLinesExporter,
  jl: JsonLinesExporter,
  csv: CsvExporter,
  xml: XmlExporter,
};

/** The built-in format names. A crawl's formats also include its FEED_EXPORTERS (feedFormats). */
export const FEED_FORMATS = Object.keys(EXPORTERS);
