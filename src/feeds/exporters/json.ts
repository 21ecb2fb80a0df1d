import { encodeText, feedEncoding, type FeedEncoding } from '../encoding.js';
import { pythonJsonDumps } from '../../python/json-dumps.js';
import { serializedFields, type ExporterOptions, type ItemExporter } from './item-exporter.js';

/** The options Scrapy's JSON exporters derive from encoding and indent. */
function jsonSetup(options: ExporterOptions): { encoding: FeedEncoding; ensureAscii: boolean } {
  return { encoding: feedEncoding(options.encoding ?? 'utf-8', options.feed), ensureAscii: !options.encoding };
}

/**
 * Scrapy's JsonItemExporter: `[`, items separated by `,`, `]`. With an
 * indent (FEED_EXPORT_INDENT, default 0) a newline follows `[` and each
 * `,` and precedes `]`; an indent above 0 also pretty-prints each item.
 */
export class JsonExporter implements ItemExporter {
  readonly #options: ExporterOptions;
  readonly #setup: ReturnType<typeof jsonSetup>;
  #first = true;

  constructor(options: ExporterOptions) {
    this.#options = options;
    this.#setup = jsonSetup(options);
  }

  #newline(): string {
    return this.#options.indent === null ? '' : '\n';
  }

  start(): Buffer {
    return Buffer.from('[' + this.#newline());
  }

  exportItem(item: unknown): Buffer {
    const indent = this.#options.indent !== null && this.#options.indent > 0 ? this.#options.indent : null;
    // Converted before the separator is spent: an item that throws (a circular one) leaves the array valid.
    const data = pythonJsonDumps(Object.fromEntries(serializedFields(item, this.#options.fields, false)), { ensureAscii: this.#setup.ensureAscii, indent });
    const separator = this.#first ? '' : ',' + this.#newline();
    this.#first = false;
    return Buffer.concat([Buffer.from(separator), encodeText(data, this.#setup.encoding)]);
  }

  finish(): Buffer {
    return Buffer.from(this.#newline() + ']');
  }
}

/** Scrapy's JsonLinesItemExporter: one compact JSON object per line; indent does not apply. */
export class JsonLinesExporter implements ItemExporter {
  readonly #options: ExporterOptions;
  readonly #setup: ReturnType<typeof jsonSetup>;

  constructor(options: ExporterOptions) {
    this.#options = options;
    this.#setup = jsonSetup(options);
  }

  start(): Buffer {
    return Buffer.alloc(0);
  }

  exportItem(item: unknown): Buffer {
    const data = pythonJsonDumps(Object.fromEntries(serializedFields(item, this.#options.fields, false)), { ensureAscii: this.#setup.ensureAscii, indent: null });
    return encodeText(data + '\n', this.#setup.encoding);
  }

  finish(): Buffer {
    return Buffer.alloc(0);
  }
}
