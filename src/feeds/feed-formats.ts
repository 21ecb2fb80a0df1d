/**
 * The feed formats of a crawl: FEED_EXPORTERS_BASE overlaid with the
 * user's FEED_EXPORTERS (Scrapy's getwithbase). A value is an exporter
 * class (a project's own, given as the class itself in settings.ts or
 * customSettings), the name of a built-in exporter (`'CsvItemExporter'`,
 * e.g. to serve a built-in under another format name), or null, which
 * disables the format.
 */
import type { Settings } from '../settings/index.js';
import { EXPORTER_CLASSES, type ItemExporterClass } from './exporters/index.js';
import { FeedConfigError } from './feed-errors.js';

export interface FeedFormats {
  /** Format name → exporter class, in the order of FEED_EXPORTERS_BASE then the user's additions. */
  readonly exporters: ReadonlyMap<string, ItemExporterClass>;
  /** Built-in formats the user set to null: named as such in error messages. */
  readonly disabled: ReadonlySet<string>;
}

function exporterFor(format: string, value: unknown): ItemExporterClass {
  if (typeof value === 'function') return value as ItemExporterClass;
  if (typeof value === 'string') {
    const cls = EXPORTER_CLASSES[value];
    if (cls !== undefined) return cls;
  }
  const shown = typeof value === 'string' ? `'${value}'` : String(value);
  throw new FeedConfigError(
    `FEED_EXPORTERS maps the format '${format}' to ${shown}: give an exporter class (one with start(), exportItem() and finish(), see docs/feeds.md), ` +
      `a built-in exporter's name (${Object.keys(EXPORTER_CLASSES).join(', ')}), or null to disable the format`,
  );
}

export function feedFormats(settings: Settings): FeedFormats {
  const base = settings.getDict('FEED_EXPORTERS_BASE');
  const user = settings.getDict('FEED_EXPORTERS');
  const exporters = new Map<string, ItemExporterClass>();
  const disabled = new Set<string>();
  for (const [format, value] of Object.entries({ ...base, ...user })) {
    if (value === null || value === undefined) {
      if (format in base) disabled.add(format);
      continue;
    }
    exporters.set(format, exporterFor(format, value));
  }
  return { exporters, disabled };
}
