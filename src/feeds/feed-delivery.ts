/**
 * Delivers a staged feed file once its feed or batch has closed (during the
 * crawl for batches, at the end for the rest): streams it through the
 * post-processing plugins, then renames it over (or appends it to) its local
 * target, or uploads it to its store with retries and backoff
 * (putWithRetries). Memory stays bounded: the file is streamed, never read
 * whole.
 *
 * Nothing is lost when delivery fails: after the last attempt, one ERROR
 * line names the target (its password masked) and the local copy, which is
 * moved to an `undelivered-…` name in FEED_TEMPDIR that no run writes to,
 * and `feedexport/failed_count/<storage>` makes the crawl's exit status 1.
 */
import { createReadStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ObjectStore } from '../stores/object-store.js';
import { putWithRetries, type RetryingPutOptions } from '../stores/retrying-put.js';
import { StoreError } from '../stores/store-error.js';
import { maskUrlCredentials } from '../url-credentials.js';
import { tempFilePath } from './feed-storage.js';
import type { RemoteFeedTarget } from './feed-target.js';
import type { FeedPluginClass, FeedPluginOptions } from './postprocessing/feed-plugin.js';
import { fileTarget, runPlugins } from './postprocessing/plugin-chain.js';
import { undeliveredPath, workingPath } from './staged-storage.js';

export interface DeliveryContext {
  logger: { info(message: string): void; warning(message: string): void; error(message: string): void };
  stats?: { inc(key: string): void } | undefined;
  /** FEED_TEMPDIR: where working files and undelivered copies are. */
  tempDir: string;
  /** The store of a remote feed's folder, opened once per crawl (a rejection counts as a failed delivery). */
  store(storeUri: string): Promise<ObjectStore>;
  retry?: Pick<RetryingPutOptions, 'attempts' | 'firstDelayMs'> | undefined;
}

export interface StagedFeed {
  /** `jsonlines feed (3 items) in: <uri>`, as Scrapy's lines name a feed. */
  readonly what: string;
  readonly stagedPath: string;
  readonly kind: string;
  readonly plugins: readonly FeedPluginClass[];
  readonly options: FeedPluginOptions;
  /** Where it goes: a local file (append: -o) or a store. */
  readonly target: { local: string; append: boolean } | RemoteFeedTarget;
}

/** An error as one line; a StoreError by its reason alone, since the line names the feed already. */
const reasonOf = (error: unknown): string =>
  maskUrlCredentials(error instanceof StoreError ? error.reason : error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');

/** Moves what could not be delivered out of the way of later runs; returns where it is now. */
async function keep(path: string, tempDir: string, name: string): Promise<string> {
  const kept = undeliveredPath(tempDir, name);
  try {
    await rename(path, kept);
    return kept;
  } catch {
    return path;
  }
}

/** Streams the staged file through the plugins into `output`, a file readers will know as `name`; the staged file is removed once that worked. */
async function postProcess(feed: StagedFeed, output: string, append: boolean, name: string, mode = 0o600): Promise<void> {
  const file = fileTarget(output, append, name, mode);
  try {
    await runPlugins(feed.plugins, feed.options, feed.stagedPath, file);
  } catch (error) {
    file.destroy();
    if (!append) await rm(output, { force: true });
    throw error;
  }
  await rm(feed.stagedPath, { force: true });
}

async function deliverLocal(feed: StagedFeed, target: { local: string; append: boolean }): Promise<void> {
  // A local feed is the user's file: made as any file is (0666 less the umask), as a feed written in place is.
  if (target.append) return postProcess(feed, target.local, true, basename(target.local), 0o666);
  // Written beside the target and renamed over it once whole, as a local JSON feed is.
  const temporary = tempFilePath(target.local);
  await postProcess(feed, temporary, false, basename(target.local), 0o666);
  try {
    await rename(temporary, target.local);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function deliverRemote(feed: StagedFeed, target: RemoteFeedTarget, context: DeliveryContext): Promise<void> {
  let file = feed.stagedPath;
  if (feed.plugins.length > 0) {
    const processed = workingPath(context.tempDir, target.key);
    await postProcess(feed, processed, false, target.key);
    file = processed;
  }
  try {
    const store = await context.store(target.storeUri);
    const { size } = await stat(file);
    await putWithRetries(store, target.key, () => createReadStream(file), {
      size,
      attempts: context.retry?.attempts,
      firstDelayMs: context.retry?.firstDelayMs,
      onRetry: (attempt, error) => context.logger.warning(`Retrying the upload of the ${feed.what} (attempt ${attempt} failed: ${reasonOf(error)})`),
    });
  } catch (error) {
    const kept = await keep(file, context.tempDir, target.key);
    throw Object.assign(new Error(reasonOf(error)), { kept });
  }
  await rm(file, { force: true });
}

/** Delivers one staged feed; logs `Stored …` or one ERROR, and counts it. Never rejects. */
export async function deliverFeed(feed: StagedFeed, context: DeliveryContext): Promise<void> {
  try {
    if ('local' in feed.target) await deliverLocal(feed, feed.target);
    else await deliverRemote(feed, feed.target, context);
  } catch (error) {
    let kept = (error as { kept?: string }).kept;
    // A post-processing failure (a plugin threw, a full disk) keeps the items as they were exported.
    kept ??= await keep(feed.stagedPath, context.tempDir, basename('local' in feed.target ? feed.target.local : feed.target.key));
    context.logger.error(
      `Error storing ${maskUrlCredentials(feed.what)}: ${reasonOf(error)}; the feed is kept in ${kept} (no run overwrites it: deliver it from there)`,
    );
    context.stats?.inc(`feedexport/failed_count/${feed.kind}`);
    return;
  }
  context.logger.info(`Stored ${maskUrlCredentials(feed.what)}`);
  context.stats?.inc(`feedexport/success_count/${feed.kind}`);
}
