/**
 * Scrapy's FeedExporter: one slot per feed, opened before the crawl, fed
 * each scraped item its filter accepts, split into batch files every
 * `batch_item_count` items, and closed at the end with
 * `Stored <format> feed (<n> items) in: <path>` (INFO,
 * seine.extensions.feedexport) and a `feedexport/success_count/<storage>`
 * stat. A feed with no items logs nothing unless store_empty is on (then
 * it holds an empty document, e.g. `[\n\n]`).
 *
 * Once the crawl runs, one feed's failure never costs another feed its
 * items: an exporter that throws on an item, a batch file that cannot be
 * opened, or a feed that cannot be stored at close (its folder was removed,
 * a FEED_EXPORTERS class throws in finish) is one ERROR line naming the
 * feed and the reason, and the other feeds go on; `close()` never throws.
 *
 * A feed whose storage fails to write (a full disk, EFBIG, a closed pipe)
 * stops there: one ERROR line names it and the cause, it is finished
 * (a JSON array gets its `]`) and stored with the items written before,
 * and it gets no more items. Standard output whose reader has gone
 * (EPIPE, `-o - | head`) stops the same way, quietly (INFO), as Unix tools
 * do. When no feed is left, `noFeedsLeft` is told, so the crawl can stop.
 *
 * A remote feed (s3://, ftp://, ftps://, sftp://) or a post-processed one
 * is written to a local file in FEED_TEMPDIR (staged-storage.ts) and
 * delivered when it closes — each batch as soon as it is full, during the
 * crawl — by feed-delivery.ts, which logs `Stored …` once it is there, or
 * one ERROR naming the copy it kept. close() waits for every delivery.
 */
import { existsSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import type { ObjectStore } from '../stores/object-store.js';
import type { RetryingPutOptions } from '../stores/retrying-put.js';
import { openStore, type StoreSettings } from '../stores/store-registry.js';
import { maskUrlCredentials } from '../url-credentials.js';
import type { Logger } from '../log/index.js';
import type { StatsCollector } from '../contracts/crawler.js';
import type { ItemExporter } from './exporters/index.js';
import { CircularReferenceError } from './export-value.js';
import { deliverFeed, type DeliveryContext } from './feed-delivery.js';
import { FeedConfigError, FeedError } from './feed-errors.js';
import type { ResolvedFeed } from './feed-settings.js';
import { checkFeedFolder, feedFilePath, openStorage, type FeedStorage } from './feed-storage.js';
import { remoteFeedTarget, type RemoteFeedTarget } from './feed-target.js';
import { expandFeedUri, uriParams } from './feed-uri.js';
import { openStagedStorage, type StagedStorage } from './staged-storage.js';
import { preflightFeeds } from './feed-preflight.js';

/** A call into an exporter (a FEED_EXPORTERS user's class, maybe) that threw: the message names the class and method. */
class ExporterError extends Error {}

/** An error as one line, without a stack: a FeedError's reason, an ExporterError's message, else `Name: message`. */
function reasonOf(error: unknown): string {
  if (error instanceof FeedError) return error.reason;
  if (error instanceof ExporterError) return error.message;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s*\n\s*/g, ' ');
}

function call<T>(exporter: ItemExporter, method: 'start' | 'exportItem' | 'finish', run: () => T): T {
  try {
    return run();
  } catch (error) {
    // The item's fault, not the exporter's: said as itself (the field path), in every format alike.
    if (error instanceof CircularReferenceError) throw error;
    throw new ExporterError(`${exporter.constructor.name}.${method}() threw ${reasonOf(error)}`);
  }
}

/** Pending bytes that are written at once, without waiting for the end of the run. */
const FLUSH_AT_BYTES = 8192;

class FeedSlot {
  itemCount = 0;
  /** itemCount when the storage last took the pending bytes: what a failed write falls back to. */
  #storedCount = 0;
  #started = false;
  /**
   * Bytes exported and not yet handed to the storage. An item's bytes wait
   * only until the end of the synchronous run that exported it (one page's
   * items, usually): one write of ten items costs what one item's write
   * did, and a write was ~4 % of a crawl's CPU at ten items a page
   * (docs/performance.md, "Issue 26: the floor"). A callback that yields
   * many items in one run is written every FLUSH_AT_BYTES, so memory stays
   * flat and a failing write cuts back little.
   */
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  constructor(
    readonly feed: ResolvedFeed,
    readonly uri: string,
    readonly batchId: number,
    readonly storage: FeedStorage,
    readonly exporter: ItemExporter,
    /** Where a staged feed goes when it closes; undefined for a file written in place or standard output. */
    readonly target?: { local: string; append: boolean } | RemoteFeedTarget,
  ) {
    if (feed.storeEmpty) {
      // Written now: a feed that cannot take even its opening bytes is refused before the crawl starts.
      this.start();
      this.flush();
    }
  }

  /** Whether the opening bytes (`[`, a header) were written. */
  get started(): boolean {
    return this.#started;
  }

  start(): void {
    if (this.#started) return;
    this.#add(call(this.exporter, 'start', () => this.exporter.start()));
    this.#started = true;
  }

  exportItem(item: unknown): void {
    this.start();
    this.#add(call(this.exporter, 'exportItem', () => this.exporter.exportItem(item)));
    this.itemCount++;
  }

  finish(): void {
    if (!this.#started) return;
    this.#started = false;
    this.#add(call(this.exporter, 'finish', () => this.exporter.finish()));
    this.flush();
  }

  /**
   * Hands the pending bytes to the storage in one write. A write that fails
   * (a FeedError) stored none of them (the storage cuts a part-written run
   * back), so the count falls back to the items stored before.
   */
  flush(): void {
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    try {
      this.storage.write(bytes);
    } catch (error) {
      this.itemCount = this.#storedCount;
      throw error;
    }
    this.#storedCount = this.itemCount;
  }

  #add(bytes: Buffer): void {
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes >= FLUSH_AT_BYTES) this.flush();
  }
}

export interface FeedExporterOptions {
  /** The spider: its attributes fill `%(name)s` and the other placeholders. */
  spider: object;
  logger: Pick<Logger, 'info' | 'warning' | 'error'>;
  stats?: Pick<StatsCollector, 'inc'>;
  /** The clock for `%(time)s` / `%(batch_time)s` (tests). */
  now?: () => Date;
  /** Standard output's backpressure: true when its buffer is full, false once drained (the crawl pauses meanwhile). */
  backpressure?: (full: boolean) => void;
  /**
   * Called once when every feed has stopped mid-crawl: `feed_error` if one
   * failed, `stdout_closed` if standard output's reader left.
   */
  noFeedsLeft?: (reason: 'feed_error' | 'stdout_closed') => void;
  /** The crawl's settings: FEED_TEMPDIR, and what remote stores read (AWS_*, FEED_STORAGE_FTP_ACTIVE, …). */
  settings?: StoreSettings;
  /** Opens the store of a remote feed's folder; default: the store its scheme names (src/stores), with `settings`. */
  openStore?: (uri: string) => Promise<ObjectStore>;
  /** How uploads are retried (default: putWithRetries's attempts and backoff). */
  retry?: Pick<RetryingPutOptions, 'attempts' | 'firstDelayMs'>;
}

/** The staged storage of a slot, when it has one. */
const stagedOf = (storage: FeedStorage): StagedStorage | undefined => ('stagedPath' in storage ? (storage as StagedStorage) : undefined);

/** Standard output whose reader has gone (`-o - | head`): the end of the feed, not a failure. */
function readerGone(slot: FeedSlot, error: FeedError): boolean {
  return slot.storage.kind === 'StdoutFeedStorage' && error.systemCode === 'EPIPE';
}

export class FeedExporter {
  #slots: FeedSlot[] = [];
  #closed = false;
  /** Feeds that stopped mid-crawl because a write failed (EPIPE on standard output excluded). */
  #writeFailures = 0;
  /** Every local file opened for appending, by absolute path: what fileSizes() reports. */
  readonly #appendFiles = new Map<string, FeedStorage>();
  /** Deliveries of staged feeds under way: close() waits for them. */
  readonly #deliveries = new Set<Promise<void>>();
  /** Each feed's last delivery: its batches go one after another, in order, so a fast crawl does not open an upload per batch at once. */
  readonly #lastDelivery = new Map<ResolvedFeed, Promise<void>>();
  /** The stores of remote feeds, by store URI, opened on the first delivery to each. */
  readonly #stores = new Map<string, Promise<ObjectStore>>();
  readonly #delivery: DeliveryContext;
  /** Whether a flush of the items exported in this synchronous run is queued. */
  #flushQueued = false;
  readonly #flushQueuedItems = (): void => {
    this.#flushQueued = false;
    this.flush();
  };

  /** Opens every feed at once: a feed that cannot be opened throws before anything is crawled. */
  constructor(
    readonly feeds: readonly ResolvedFeed[],
    readonly options: FeedExporterOptions,
  ) {
    const params = uriParams(this.options.spider, 1, this.options.now?.());
    const tempDir = (options.settings?.get('FEED_TEMPDIR') as string | null | undefined) ?? tmpdir();
    this.#delivery = {
      logger: options.logger,
      stats: options.stats,
      tempDir,
      store: (uri) => this.#store(uri),
      retry: options.retry,
    };
    // Every path is checked before any file is opened, so a bad second feed leaves the first one's old file untouched.
    preflightFeeds(feeds, params, tempDir, (message) => this.options.logger.warning(message));
    try {
      for (const feed of feeds) this.#slots.push(this.#openSlot(feed, 1));
    } catch (error) {
      for (const slot of this.#slots) slot.storage.abort();
      this.#closed = true;
      throw error;
    }
  }

  #store(uri: string): Promise<ObjectStore> {
    let store = this.#stores.get(uri);
    if (store === undefined) {
      store = this.options.openStore?.(uri) ?? openStore(uri, this.options.settings ?? { get: () => undefined });
      this.#stores.set(uri, store);
      // A store that could not open is tried again by the next delivery (the server may be back).
      store.catch(() => this.#stores.delete(uri));
    }
    return store;
  }

  #openSlot(feed: ResolvedFeed, batchId: number): FeedSlot {
    const uri = expandFeedUri(feed.uri, uriParams(this.options.spider, batchId, this.options.now?.()));
    const remote = remoteFeedTarget(uri);
    if (typeof remote === 'string') throw new FeedConfigError(`Cannot deliver the feed '${feed.uri}': ${remote}`);
    if (remote !== undefined || feed.plugins.length > 0) {
      const target = remote ?? { local: feedFilePath(uri), append: !feed.overwrite };
      if (remote === undefined) checkFeedFolder(uri);
      const name = remote?.key ?? basename(feedFilePath(uri));
      const staged = openStagedStorage(uri, name, this.#delivery.tempDir, remote?.kind ?? 'FileFeedStorage');
      try {
        const exporter = new feed.exporter({ encoding: feed.encoding, fields: feed.fields, indent: feed.indent, feed: feed.uri });
        return new FeedSlot(feed, uri, batchId, staged, exporter, target);
      } catch (error) {
        staged.abort();
        throw error;
      }
    }
    let slot: FeedSlot | undefined;
    const storage = openStorage(uri, {
      overwrite: feed.overwrite,
      format: feed.format,
      warn: (message) => this.options.logger.warning(message),
      info: (message) => this.options.logger.info(message),
      stdout: {
        ...(this.options.backpressure === undefined ? {} : { backpressure: this.options.backpressure }),
        // Standard output fails after the write returned (the pipe's reader left while bytes waited).
        failed: (error) => {
          if (slot !== undefined) this.#stopSlot(slot, error);
        },
      },
    });
    try {
      const exporter = new feed.exporter({ encoding: feed.encoding, fields: feed.fields, indent: feed.indent, feed: feed.uri });
      slot = new FeedSlot(feed, uri, batchId, storage, exporter);
      if (storage.appendPath !== undefined) this.#appendFiles.set(storage.appendPath, storage);
      return slot;
    } catch (error) {
      storage.abort();
      throw error;
    }
  }

  /** Finishes and stores one feed file; a failure is logged (never thrown) and the file left as abort() leaves it. */
  #closeSlot(slot: FeedSlot): void {
    const what = `${slot.feed.format} feed (${slot.itemCount} items) in: ${maskUrlCredentials(slot.uri)}`;
    try {
      try {
        slot.finish();
      } catch (error) {
        // An unfinished JSON/XML document must not replace the old file: drop the temporary file (a staged one is kept).
        slot.storage.abort();
        throw error;
      }
      slot.storage.close();
    } catch (error) {
      const kept = stagedOf(slot.storage)?.keptPath;
      this.options.logger.error(`Error storing ${what}: ${reasonOf(error)}${kept === undefined ? '' : `; the items exported are kept in ${kept}`}`);
      this.options.stats?.inc(`feedexport/failed_count/${slot.storage.kind}`);
      return;
    }
    if (slot.target !== undefined) {
      this.#deliver(slot, what);
      return;
    }
    if (slot.itemCount === 0 && !slot.feed.storeEmpty) return;
    this.options.logger.info(`Stored ${what}`);
    this.options.stats?.inc(`feedexport/success_count/${slot.storage.kind}`);
  }

  /** Starts delivering a closed staged feed; a feed with nothing to store (no items, store_empty off) is dropped. */
  #deliver(slot: FeedSlot, what: string): void {
    const staged = stagedOf(slot.storage)!;
    if (slot.itemCount === 0 && !slot.feed.storeEmpty) {
      rmSync(staged.stagedPath, { force: true });
      return;
    }
    const job = { what, stagedPath: staged.stagedPath, kind: staged.kind, plugins: slot.feed.plugins, options: slot.feed.options, target: slot.target! };
    // deliverFeed never rejects, so the chain never breaks.
    const delivery = (this.#lastDelivery.get(slot.feed) ?? Promise.resolve()).then(() => deliverFeed(job, this.#delivery));
    this.#lastDelivery.set(slot.feed, delivery);
    this.#deliveries.add(delivery);
    void delivery.finally(() => this.#deliveries.delete(delivery));
  }

  /**
   * Stops a feed whose storage could not write: finishes it with what it
   * holds (a JSON array closed by `]`; if even that fails, a temporary file
   * is dropped and the old target kept), logs one line, and takes it out of
   * the feeds. Does nothing for a feed already stopped or after close().
   */
  #stopSlot(slot: FeedSlot, error: FeedError): void {
    const index = this.#slots.indexOf(slot);
    if (this.#closed || index < 0) return;
    this.#slots.splice(index, 1);
    let kept: string;
    try {
      // Not even the opening `[` went in: an empty file must not replace the old one.
      if (!slot.started) throw error;
      slot.finish();
      slot.storage.close();
      kept = slot.itemCount === 0 ? 'nothing was written to it' : `it keeps the ${slot.itemCount} items written before`;
      if (slot.target !== undefined) {
        kept = `the ${slot.itemCount} items written before are delivered`;
        this.#deliver(slot, `${slot.feed.format} feed (${slot.itemCount} items) in: ${maskUrlCredentials(slot.uri)}`);
      }
    } catch {
      slot.storage.abort();
      const keptPath = stagedOf(slot.storage)?.keptPath;
      const replaced = slot.storage.kind === 'FileFeedStorage' && slot.feed.overwrite && (slot.feed.format === 'json' || slot.feed.format === 'xml');
      if (slot.itemCount === 0) kept = replaced ? 'nothing was written, and the file is as it was before the crawl' : 'nothing was written to it';
      else kept = replaced ? `its ${slot.itemCount} items are lost, and the file is as it was before the crawl` : `it ends with the last of the ${slot.itemCount} items written before`;
      if (keptPath !== undefined) kept = `its ${slot.itemCount} items are kept in ${keptPath}`;
    }
    const left = this.#slots.length > 0 ? 'the other feeds go on' : 'no feed is left, so the crawl stops';
    if (readerGone(slot, error)) {
      // No count: items still queued for the pipe when the reader left were counted but never read.
      this.options.logger.info(`Standard output was closed by its reader: stopped writing the ${slot.feed.format} feed ${slot.uri}; ${left}`);
    } else {
      this.#writeFailures++;
      this.options.stats?.inc(`feedexport/failed_count/${slot.storage.kind}`);
      this.options.logger.error(`Feed ${maskUrlCredentials(slot.uri)} could not be written (${error.reason}): stopped writing it; ${kept}; ${left}`);
    }
    if (this.#slots.length === 0) this.options.noFeedsLeft?.(this.#writeFailures > 0 ? 'feed_error' : 'stdout_closed');
  }

  /**
   * Writes every feed's pending items to its storage. Items are on disk (or
   * on their way to standard output) once the synchronous run that exported
   * them ends, when the crawl acknowledges a request (fileSizes), and at
   * close. A feed whose storage fails stops as in exportItem. Never throws:
   * it also runs as a queued microtask.
   */
  flush(): void {
    for (let i = 0; i < this.#slots.length; i++) {
      const slot = this.#slots[i]!;
      try {
        slot.flush();
      } catch (error) {
        if (error instanceof FeedError) {
          this.#stopSlot(slot, error);
          i--;
        } else {
          this.options.logger.error(`Error writing the ${slot.feed.format} feed ${slot.uri}: ${reasonOf(error)}`);
        }
      }
    }
  }

  /**
   * Writes `item` to every feed that accepts it; a full batch is closed and
   * the next one opened. A feed that fails on the item logs one ERROR and
   * the others still get it; a batch that cannot be opened ends that feed.
   */
  exportItem(item: unknown): void {
    if (this.#closed) return;
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      queueMicrotask(this.#flushQueuedItems);
    }
    let circular = false;
    // In place: the list changes only when a batch is full, not once per item.
    for (let i = 0; i < this.#slots.length; i++) {
      const slot = this.#slots[i]!;
      try {
        if (!slot.feed.accepts(item)) continue;
        slot.exportItem(item);
      } catch (error) {
        if (error instanceof FeedError) {
          // The storage failed, not the exporter: the feed stops (one line), it does not fail item after item.
          this.#stopSlot(slot, error);
          i--;
          continue;
        }
        if (error instanceof CircularReferenceError) {
          // Counted once however many feeds refuse it, as Scrapy counts a dropped item (item_dropped_reasons_count/<Name>).
          if (!circular) this.options.stats?.inc('item_dropped_count');
          if (!circular) this.options.stats?.inc('item_dropped_reasons_count/CircularReferenceError');
          circular = true;
          this.options.logger.error(`Dropped an item from the ${slot.feed.format} feed ${slot.uri}: ${error.message}`);
          continue;
        }
        this.options.logger.error(`Error exporting an item to the ${slot.feed.format} feed ${slot.uri}: ${reasonOf(error)}`);
        continue;
      }
      if (slot.feed.batchItemCount <= 0 || slot.itemCount < slot.feed.batchItemCount) continue;
      this.#closeSlot(slot);
      try {
        this.#slots[i] = this.#openSlot(slot.feed, slot.batchId + 1);
      } catch (error) {
        this.options.logger.error(
          `Error opening batch ${slot.batchId + 1} of the ${slot.feed.format} feed ${slot.feed.uri}: ${reasonOf(error)}; the feed gets no more items`,
        );
        this.#slots.splice(i--, 1);
      }
    }
  }

  /**
   * Finishes and stores every feed, each on its own: one that fails is
   * logged and the others still stored. Local files are stored before this
   * returns; the promise settles once every staged feed (remote,
   * post-processed; earlier batches too) is delivered or kept, and the
   * stores are closed. Never rejects; later calls do nothing.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const slot of this.#slots) this.#closeSlot(slot);
    while (this.#deliveries.size > 0) await Promise.all([...this.#deliveries]);
    const stores = [...this.#stores.values()];
    this.#stores.clear();
    for (const store of stores) {
      try {
        await (await store).close();
      } catch {
        // a store that did not open has nothing to close; one that fails to close has delivered already
      }
    }
  }

  /**
   * For each local file opened for appending (`-o`, overwrite false), its
   * absolute path and the bytes in it now (after close: at close). A
   * resumed job truncates the files back to these sizes
   * (truncateFeedFiles) so that items scraped after its last checkpoint
   * are not written twice. Batch files opened earlier in the run count too.
   */
  fileSizes(): Record<string, number> {
    this.flush();
    const sizes: Record<string, number> = {};
    for (const [path, storage] of this.#appendFiles) sizes[path] = storage.size();
    return sizes;
  }

  /**
   * Truncates each existing file longer than its recorded size (from
   * fileSizes) to that size, before the feeds of a resumed run open. Files
   * that are missing, not regular files, or not longer are left alone, as
   * are entries whose size is not a whole number ≥ 0. Returns the paths
   * truncated; a file that cannot be truncated throws a FeedError.
   */
  static truncateFeedFiles(sizes: Record<string, number>): string[] {
    const truncated: string[] = [];
    for (const [path, size] of Object.entries(sizes)) {
      if (!Number.isSafeInteger(size) || size < 0 || !existsSync(path)) continue;
      const stat = statSync(path);
      if (!stat.isFile() || stat.size <= size) continue;
      try {
        truncateSync(path, size);
      } catch (error) {
        throw new FeedError(path, (error as Error).message);
      }
      truncated.push(path);
    }
    return truncated;
  }
}
