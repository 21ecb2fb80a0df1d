/**
 * The feeds of a crawl: the `FEEDS` setting plus the feeds given in code or
 * by -o/-O, each completed from FEED_EXPORT_* / FEED_STORE_EMPTY as
 * Scrapy's feed_complete_default_values_from_settings does, and checked
 * before the crawl starts.
 */
import { extname } from 'node:path';
import type { Settings } from '../settings/index.js';
import { FEED_FORMATS, type FieldsToExport, type ItemExporterClass } from './exporters/index.js';
import { FeedConfigError, FeedOptionError } from './feed-errors.js';
import { feedFormats, type FeedFormats } from './feed-formats.js';
import { hasBatchPlaceholder } from './feed-uri.js';
import { feedEncoding } from './encoding.js';
import { isUnsupportedFeedUri, remoteScheme } from './feed-target.js';
import type { FeedPluginClass, FeedPluginOptions } from './postprocessing/feed-plugin.js';
import { resolvePlugins } from './postprocessing/plugin-chain.js';

/** An item filter: Scrapy's ItemFilter contract (`accepts(item)`). */
export interface ItemFilter {
  accepts(item: unknown): boolean;
}
export type ItemFilterOption = ItemFilter | (new (feedOptions: Record<string, unknown>) => ItemFilter) | ((item: unknown) => boolean);

/** One feed as code gives it: `crawl(Spider, { feeds: [{ path: 'items.csv', overwrite: true }] })`. Options are the FEEDS keys. */
export interface FeedSpec {
  /**
   * A file path (placeholders allowed), a `file://` URI, `-` / `stdout:` for
   * standard output, or a remote URI: `s3://bucket/key`,
   * `ftp://user:pass@host[:port]/path`, `ftps://…`, `sftp://…`.
   */
  path: string;
  /** json, jsonlines (jsonl, jl), csv, xml or a FEED_EXPORTERS format; default: from the extension. */
  format?: string;
  overwrite?: boolean;
  encoding?: string | null;
  fields?: FieldsToExport | null;
  indent?: number | null;
  store_empty?: boolean;
  batch_item_count?: number;
  /** Export only instances of these classes (or items whose class has this name). */
  item_classes?: ReadonlyArray<string | (abstract new (...args: never[]) => unknown)>;
  item_filter?: ItemFilterOption;
  /** The `-o`/`-O` value the feed came from (set by the command line): format errors then quote it. */
  option?: string;
  /** Post-processing plugins, first to last: built-in names (`'GzipPlugin'`, …) or classes. */
  postprocessing?: ReadonlyArray<string | FeedPluginClass>;
  /** The plugins' options (`gzip_compresslevel`, …) and any other option a plugin of yours reads. */
  readonly [option: string]: unknown;
}

export interface ResolvedFeed {
  /** The path as given (the template, for batches). */
  uri: string;
  format: string;
  /** The class FEED_EXPORTERS(_BASE) maps the format to. */
  exporter: ItemExporterClass;
  overwrite: boolean;
  encoding: string | null;
  fields: FieldsToExport | null;
  indent: number | null;
  storeEmpty: boolean;
  batchItemCount: number;
  accepts: (item: unknown) => boolean;
  /** The post-processing plugins, first to last (empty: none). */
  plugins: readonly FeedPluginClass[];
  /** The feed's options as given, which the plugins read. */
  options: FeedPluginOptions;
  /**
   * A remote feed whose FEEDS entry says `overwrite: false`: S3, FTP and
   * SFTP feeds are replaced whole, so this is a warning when the feed opens
   * (Scrapy's, for S3). `-o` says nothing: remote feeds are overwritten, as Scrapy's.
   */
  appendRequested: boolean;
}

const BY_EXTENSION: Record<string, string> = { '.json': 'json', '.jsonl': 'jsonlines', '.jl': 'jsonlines', '.csv': 'csv', '.xml': 'xml' };

export const isStdout = (uri: string): boolean => uri === '-' || uri === 'stdout:';

/**
 * The format a path implies: its extension (`.jsonl` and `.jl` are
 * jsonlines), or, as in Scrapy, an extension that is itself the name of
 * one of `formats` (`items.txt` with a `txt` format in FEED_EXPORTERS);
 * standard output defaults to JSON Lines.
 */
export function formatFromPath(path: string, formats: Iterable<string> = FEED_FORMATS): string | undefined {
  if (isStdout(path)) return 'jsonlines';
  const extension = extname(path).toLowerCase();
  const builtIn = BY_EXTENSION[extension];
  if (builtIn !== undefined) return builtIn;
  const named = extension.slice(1);
  return named !== '' && [...formats].includes(named) ? named : undefined;
}

/** The formats a user would name, for messages: the built-in ones without aliases, then the project's own. */
function formatNames(formats: FeedFormats, withAliases: boolean): string[] {
  const builtIn = withAliases ? FEED_FORMATS : ['json', 'jsonlines', 'csv', 'xml'];
  const own = [...formats.exporters.keys()].filter((format) => !FEED_FORMATS.includes(format));
  return [...builtIn.filter((format) => formats.exporters.has(format)), ...own];
}

function extensionNames(formats: FeedFormats): string[] {
  const own = [...formats.exporters.keys()].filter((format) => !FEED_FORMATS.includes(format));
  return [...Object.entries(BY_EXTENSION).filter(([, format]) => formats.exporters.has(format)).map(([extension]) => extension), ...own.map((format) => `.${format}`)];
}

/** The extensions the compression plugins' files take. */
const COMPRESSED = /\.(gz|xz|lzma|bz2|br|zst)$/i;

/** The format of `spec` and its exporter; a FeedConfigError (FEEDS, code) or FeedOptionError (-o/-O) says what is wrong. */
function exporterOf(spec: FeedSpec, formats: FeedFormats): { format: string; exporter: ItemExporterClass } {
  const format =
    spec.format ??
    formatFromPath(spec.path, formats.exporters.keys()) ??
    // A post-processed feed names its format before the compression's extension: items.jsonl.gz is JSON Lines.
    (spec.postprocessing?.length && COMPRESSED.test(spec.path) ? formatFromPath(spec.path.replace(COMPRESSED, ''), formats.exporters.keys()) : undefined);
  const option = spec.option;
  if (format === undefined) {
    const extensions = extensionNames(formats).join(', ');
    throw option === undefined
      ? new FeedConfigError(`Cannot tell the format of the feed '${spec.path}': give it a format (${formatNames(formats, false).join(', ')}) or an extension (${extensions})`)
      : new FeedOptionError(`Cannot tell the feed format of '${option}': use an extension (${extensions}) or add :format, e.g. -o ${option}:jsonlines`);
  }
  const exporter = formats.exporters.get(format);
  if (exporter !== undefined) return { format, exporter };
  const names = formatNames(formats, true).join(', ');
  if (formats.disabled.has(format)) {
    const message = `The feed format '${format}' ${option === undefined ? `of the feed '${spec.path}'` : `in '${option}'`} is disabled (FEED_EXPORTERS sets it to null): use one of ${names}`;
    throw option === undefined ? new FeedConfigError(message) : new FeedOptionError(message);
  }
  throw option === undefined
    ? new FeedConfigError(`Unknown feed format '${format}' for the feed '${spec.path}': use one of ${names}`)
    : new FeedOptionError(`Unknown feed format '${format}' in '${option}': use one of ${names} after the colon, e.g. -o ${spec.path}:jsonlines`);
}

function fieldsFromSettings(settings: Settings): FieldsToExport | null {
  const raw = settings.getRaw('FEED_EXPORT_FIELDS');
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, string>;
  const list = settings.get('FEED_EXPORT_FIELDS');
  return list === null || list.length === 0 ? null : list;
}

function filterFor(spec: FeedSpec): (item: unknown) => boolean {
  const option = spec.item_filter;
  if (option !== undefined) {
    if (typeof option === 'object') return (item) => option.accepts(item);
    const proto = (option as { prototype?: { accepts?: unknown } }).prototype;
    if (typeof proto?.accepts === 'function') {
      const filter = new (option as new (feedOptions: Record<string, unknown>) => ItemFilter)({ ...spec });
      return (item) => filter.accepts(item);
    }
    return option as (item: unknown) => boolean;
  }
  const classes = spec.item_classes ?? [];
  if (classes.length === 0) return () => true;
  return (item) =>
    classes.some((cls) => (typeof cls === 'string' ? (item as object | null)?.constructor?.name === cls : item instanceof (cls as abstract new () => unknown)));
}

/**
 * Fills a feed's options from the settings and checks them; a
 * FeedConfigError names what is wrong. `formats` defaults to those of
 * `settings` (FEED_EXPORTERS over FEED_EXPORTERS_BASE).
 */
export function resolveFeed(spec: FeedSpec, settings: Settings, formats: FeedFormats = feedFormats(settings)): ResolvedFeed {
  const { format, exporter } = exporterOf(spec, formats);
  const indentRaw = spec.indent !== undefined ? spec.indent : settings.getRaw('FEED_EXPORT_INDENT') === null ? null : settings.getInt('FEED_EXPORT_INDENT');
  const remote = remoteScheme(spec.path) !== undefined;
  const feed: ResolvedFeed = {
    uri: spec.path,
    format,
    exporter,
    overwrite: remote || (spec.overwrite ?? false),
    encoding: spec.encoding !== undefined ? spec.encoding : settings.get('FEED_EXPORT_ENCODING'),
    fields: spec.fields !== undefined ? spec.fields : fieldsFromSettings(settings),
    indent: indentRaw,
    storeEmpty: spec.store_empty ?? settings.getBool('FEED_STORE_EMPTY'),
    batchItemCount: spec.batch_item_count ?? settings.getInt('FEED_EXPORT_BATCH_ITEM_COUNT'),
    accepts: filterFor(spec),
    plugins: resolvePlugins(spec, spec.path),
    options: spec,
    appendRequested: remote && spec.overwrite === false && spec.option === undefined,
  };
  if (feed.encoding !== null) feedEncoding(feed.encoding, spec.path);
  if (feed.batchItemCount > 0 && !hasBatchPlaceholder(spec.path)) {
    throw new FeedConfigError(
      `The feed '${spec.path}' is split into batches of ${feed.batchItemCount} items, but its path has no %(batch_time)s or %(batch_id)d: add one, e.g. items-%(batch_id)d.json, so that each batch gets its own file`,
    );
  }
  if (isUnsupportedFeedUri(spec.path)) {
    throw new FeedConfigError(
      `Unsupported feed storage '${spec.path}': seine writes feeds to local files (a path or file:// URI), to standard output (-), and to s3://, ftp://, ftps:// and sftp:// URIs`,
    );
  }
  if (isStdout(spec.path) && feed.plugins.length > 0) {
    throw new FeedConfigError(`The feed '${spec.path}' (standard output) cannot be post-processed: write it to a file, e.g. -o items.jsonl.gz with postprocessing in FEEDS, or pipe it through gzip`);
  }
  return feed;
}

/**
 * Scrapy's order: the -o/-O (or code) feeds first, then FEEDS, whose entry
 * replaces a feed with the same path.
 */
export function resolveFeeds(settings: Settings, extra: readonly FeedSpec[] = []): ResolvedFeed[] {
  const byPath = new Map<string, FeedSpec>();
  for (const spec of extra) byPath.set(spec.path, spec);
  for (const [path, options] of Object.entries(settings.getDict('FEEDS'))) {
    byPath.set(path, { ...(options as Omit<FeedSpec, 'path'>), path });
  }
  const formats = feedFormats(settings);
  return [...byPath.values()].map((spec) => resolveFeed(spec, settings, formats));
}
