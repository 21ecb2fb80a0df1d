/** Feed exports (docs/feeds.md): the FEEDS setting, -o/-O, and the json, jsonlines, csv and xml exporters. */
export { FeedExporter, type FeedExporterOptions } from './feed-exporter.js';
export { resolveFeed, resolveFeeds, formatFromPath, type FeedSpec, type ItemFilter, type ResolvedFeed } from './feed-settings.js';
export { FeedConfigError, FeedError } from './feed-errors.js';
export { EXPORTERS, FEED_FORMATS, CsvExporter, JsonExporter, JsonLinesExporter, XmlExporter, type ExporterOptions, type FieldsToExport, type ItemExporter } from './exporters/index.js';
export { expandFeedUri, uriParams } from './feed-uri.js';
