/**
 * Scrapy's FeedExporter: one slot per feed, opened before the crawl, fed
 * each scraped item its filter accepts, split into batch files every
 * `batch_item_count` items, and closed at the end with
 * `Stored <format> feed (<n> items) in: <path>` (INFO,
 * seine.extensions.feedexport) and a `feedexport/success_count/<storage>`
 * stat. A feed with no items logs nothing unless store_empty is on (then
 * it holds an empty document, e.g. `[]`).
 */
import type { Logger } from '../log/index.js';
import type { StatsCollector } from '../core/crawler.js';
import type { ItemExporter } from './exporters/index.js';
import type { ResolvedFeed } from './feed-settings.js';
import { checkFeedFolder, openStorage, type FeedStorage } from './feed-storage.js';
import { expandFeedUri, uriParams } from './feed-uri.js';

class FeedSlot {
  itemCount = 0;
  #started = false;

  constructor(
    readonly feed: ResolvedFeed,
    readonly uri: string,
    readonly batchId: number,
    readonly storage: FeedStorage,
    readonly exporter: ItemExporter,
  ) {
    if (feed.storeEmpty) this.start();
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.storage.write(this.exporter.start());
  }

  finish(): void {
    if (this.#started) this.storage.write(this.exporter.finish());
    this.#started = false;
  }
}

export interface FeedExporterOptions {
  /** The spider: its attributes fill `%(name)s` and the other placeholders. */
  spider: object;
  logger: Pick<Logger, 'info' | 'warning'>;
  stats?: Pick<StatsCollector, 'inc'>;
  /** The clock for `%(time)s` / `%(batch_time)s` (tests). */
  now?: () => Date;
}

export class FeedExporter {
  #slots: FeedSlot[] = [];
  #closed = false;

  /** Opens every feed at once: a feed that cannot be opened throws before anything is crawled. */
  constructor(
    readonly feeds: readonly ResolvedFeed[],
    readonly options: FeedExporterOptions,
  ) {
    const params = uriParams(this.options.spider, 1, this.options.now?.());
    // Every path is checked before any file is opened, so a bad second feed leaves the first one's old file untouched.
    for (const feed of feeds) checkFeedFolder(expandFeedUri(feed.uri, params));
    try {
      for (const feed of feeds) this.#slots.push(this.#openSlot(feed, 1));
    } catch (error) {
      for (const slot of this.#slots) slot.storage.abort();
      this.#closed = true;
      throw error;
    }
  }

  #openSlot(feed: ResolvedFeed, batchId: number): FeedSlot {
    const uri = expandFeedUri(feed.uri, uriParams(this.options.spider, batchId, this.options.now?.()));
    const storage = openStorage(uri, { overwrite: feed.overwrite, format: feed.format, warn: (message) => this.options.logger.warning(message) });
    try {
      const exporter = new feed.exporter({ encoding: feed.encoding, fields: feed.fields, indent: feed.indent, feed: feed.uri });
      return new FeedSlot(feed, uri, batchId, storage, exporter);
    } catch (error) {
      storage.abort();
      throw error;
    }
  }

  #closeSlot(slot: FeedSlot): void {
    slot.finish();
    slot.storage.close();
    if (slot.itemCount === 0 && !slot.feed.storeEmpty) return;
    this.options.logger.info(`Stored ${slot.feed.format} feed (${slot.itemCount} items) in: ${slot.uri}`);
    this.options.stats?.inc(`feedexport/success_count/${slot.storage.kind}`);
  }

  /** Writes `item` to every feed that accepts it; a full batch is closed and the next one opened. */
  exportItem(item: unknown): void {
    if (this.#closed) return;
    this.#slots = this.#slots.map((slot) => {
      if (!slot.feed.accepts(item)) return slot;
      slot.start();
      slot.storage.write(slot.exporter.exportItem(item));
      slot.itemCount++;
      if (slot.feed.batchItemCount > 0 && slot.itemCount >= slot.feed.batchItemCount) {
        this.#closeSlot(slot);
        return this.#openSlot(slot.feed, slot.batchId + 1);
      }
      return slot;
    });
  }

  /** Finishes and stores every feed; later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const slot of this.#slots) this.#closeSlot(slot);
  }
}
