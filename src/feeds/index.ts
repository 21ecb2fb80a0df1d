/** Feed exports (docs/feeds.md): the FEEDS setting, -o/-O, and the json, jsonlines, csv and xml exporters. */
export { FeedExporter, type FeedExporterOptions } from './feed-exporter.js';
export { resolveFeed, resolveFeeds, formatFromPath, type FeedSpec, type ItemFilter, type ResolvedFeed } from './feed-settings.js';
export { FeedConfigError, FeedError, FeedOptionError } from './feed-errors.js';
export { feedFormats, type FeedFormats } from './feed-formats.js';
export {
  EXPORTERS, EXPORTER_CLASSES, FEED_FORMATS, CsvExporter, JsonExporter, JsonLinesExporter, XmlExporter,
  type ExporterOptions, type FieldsToExport, type ItemExporter, type ItemExporterClass,
} from './exporters/index.js';
export { expandFeedUri, uriParams } from './feed-uri.js';
export { GzipPlugin } from './postprocessing/gzip-plugin.js';
export { LZMAPlugin } from './postprocessing/lzma-plugin.js';
export { Bz2Plugin } from './postprocessing/bz2-plugin.js';
export { BrotliPlugin } from './postprocessing/brotli-plugin.js';
export { ZstdPlugin } from './postprocessing/zstd-plugin.js';
export type { FeedPlugin, FeedPluginClass, FeedPluginOptions, FeedPluginTarget } from './postprocessing/feed-plugin.js';
