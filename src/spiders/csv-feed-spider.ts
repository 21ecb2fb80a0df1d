import type { CallbackOutput, CallbackResult } from '../http/request.js';
import type { Response } from '../http/response.js';
import { defaultLogBus } from '../log/index.js';
import { Spider, spiderClassName } from '../contracts/spider.js';
import { SpiderDefinitionError } from '../contracts/spider-errors.js';
import { csviter } from './csviter.js';
import { collectOutputs } from './feed-results.js';

/**
 * A spider for CSV feeds (Scrapy's CSVFeedSpider): each response is read as
 * CSV and `parseRow(response, row)` is called once per row, with the row as
 * an object keyed by `headers` (or, when none are set, by the first row).
 * Rows with the wrong number of fields are skipped with a warning.
 */
export class CSVFeedSpider extends Spider {
  /** Field separator; null means ','. */
  delimiter: string | null = null;
  /** Quote character; null means '"'. */
  quotechar: string | null = null;
  /** Column names; null means the first row holds them. */
  headers: readonly string[] | null = null;

  override parse(response: Response): CallbackResult {
    return this.parseRows(this.adaptResponse(response));
  }

  /** Called once per row; override it. */
  parseRow(response: Response, row: Record<string, string>): CallbackResult {
    void row;
    throw new SpiderDefinitionError(
      `${spiderClassName(this.constructor)} does not define parseRow(response, row): a CSVFeedSpider needs it to scrape the rows of ${response.url}`,
    );
  }

  /** Changes the response before it is parsed; must return a response. */
  adaptResponse(response: Response): Response {
    return response;
  }

  /** Last look at what parseRow produced for one row; returns what to keep. */
  processResults(response: Response, results: CallbackOutput[]): Iterable<CallbackOutput> {
    void response;
    return results;
  }

  /** parseRow on each row, its results through processResults. */
  async *parseRows(response: Response): AsyncIterable<CallbackOutput> {
    const rows = csviter(response.text, {
      delimiter: this.delimiter,
      quotechar: this.quotechar,
      headers: this.headers,
      logger: (this.crawler?.logBus ?? defaultLogBus).getLogger('seine.utils.iterators'),
    });
    for (const row of rows) {
      const results = await collectOutputs(this.parseRow(response, row));
      for (const output of this.processResults(response, results) ?? []) if (output != null) yield output;
    }
  }
}
