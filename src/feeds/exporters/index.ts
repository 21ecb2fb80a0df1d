import { CsvExporter } from './csv.js';
import { JsonExporter, JsonLinesExporter } from './json.js';
import { XmlExporter } from './xml.js';
import type { ExporterOptions, ItemExporter } from './item-exporter.js';

export { CsvExporter, JsonExporter, JsonLinesExporter, XmlExporter };
export { serializedFields, type ExporterOptions, type FieldsToExport, type ItemExporter } from './item-exporter.js';

/** FEED_EXPORTERS_BASE: the format names Scrapy knows, and their exporters. */
export const EXPORTERS: Readonly<Record<string, new (options: ExporterOptions) => ItemExporter>> = {
  json: JsonExporter,
  jsonlines: JsonLinesExporter,
  jsonl: JsonLinesExporter,
  jl: JsonLinesExporter,
  csv: CsvExporter,
  xml: XmlExporter,
};

export const FEED_FORMATS = Object.keys(EXPORTERS);
