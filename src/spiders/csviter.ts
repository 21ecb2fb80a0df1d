import { lazyPackage } from '../errors/lazy-package.js';
import type { Logger } from '../log/index.js';

// csv-parse is loaded on first use (its CommonJS build, synchronously): ~15 ms of start-up that a crawl without CSV never pays.
const parseModule = lazyPackage<typeof import('csv-parse/sync')>('csv-parse/sync', 'reading CSV');
function parseCsv(input: string, options: import('csv-parse/sync').Options): unknown {
  return parseModule().parse(input, options);
}

export interface CsvIterOptions {
  /** Default ','. */
  delimiter?: string | null;
  /** Default '"'. */
  quotechar?: string | null;
  /** Column names; default: the first row. */
  headers?: readonly string[] | null;
  /** Where rows with the wrong number of fields are reported. */
  logger?: Logger;
}

interface ParsedRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

/**
 * Scrapy's `csviter`: one object per row, keyed by the headers (given, or
 * the first row). A row with another number of fields than there are
 * headers is skipped with a warning naming its line, as Python's csv reader
 * counts lines (a quoted field over two lines counts two). Parsing is
 * csv-parse's, set to Python's lenient defaults (stray quotes kept as text).
 */
export function* csviter(text: string, options: CsvIterOptions = {}): Generator<Record<string, string>> {
  const records = parseCsv(text, {
    delimiter: options.delimiter || ',',
    quote: options.quotechar || '"',
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    info: true,
    raw: true,
  }) as unknown as ParsedRecord[];
  let index = 0;
  let headers = options.headers && options.headers.length > 0 ? [...options.headers] : null;
  if (headers === null) {
    const first = records[index++];
    if (first === undefined) return;
    headers = fields(first);
  }
  for (; index < records.length; index++) {
    const parsed = records[index]!;
    const row = fields(parsed);
    if (row.length !== headers.length) {
      options.logger?.warning(`ignoring row ${parsed.info.lines} (length: ${row.length}, should be: ${headers.length})`);
      continue;
    }
    const out: Record<string, string> = {};
    headers.forEach((header, i) => {
      out[header] = row[i]!;
    });
    yield out;
  }
}

// Python's reader gives [] for a blank line; csv-parse gives [''].
function fields(parsed: ParsedRecord): string[] {
  return parsed.record.length === 1 && parsed.record[0] === '' && /^[\r\n]*$/.test(parsed.raw) ? [] : parsed.record;
}
