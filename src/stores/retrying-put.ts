/**
 * Delivers an object to a store, trying again with exponential backoff when
 * the store fails: a remote store that is briefly down (a restarted FTP
 * server, a throttled S3 endpoint) must not cost the crawl a file or a feed.
 *
 * A Readable can be read only once, so the body is made anew for every
 * attempt (`makeBody`), e.g. by opening the local copy again.
 */
import type { Readable } from 'node:stream';
import type { ObjectStore } from './object-store.js';
import { StoreError } from './store-error.js';

export interface RetryingPutOptions {
  /** How many times to try in all (1 = no retry). Default 3. */
  readonly attempts?: number | undefined;
  /** The wait before the second attempt, in ms; each later wait doubles. Default 1000. */
  readonly firstDelayMs?: number | undefined;
  /** Called after a failed attempt that will be retried (attempt counts from 1). */
  readonly onRetry?: ((attempt: number, error: StoreError) => void) | undefined;
  readonly contentType?: string | undefined;
  readonly size?: number | undefined;
}

export const DEFAULT_PUT_ATTEMPTS = 3;
export const DEFAULT_FIRST_RETRY_DELAY_MS = 1000;

/** The wait after failed attempt `attempt` (1-based): firstDelayMs, then twice that, … */
export function retryDelayMs(attempt: number, firstDelayMs: number): number {
  return firstDelayMs * 2 ** (attempt - 1);
}

/**
 * Puts the body `makeBody()` returns at `key`, up to `attempts` times.
 * Rejects with the last attempt's StoreError once every attempt failed.
 */
export async function putWithRetries(
  store: ObjectStore,
  key: string,
  makeBody: () => Readable | Buffer,
  options: RetryingPutOptions = {},
): Promise<void> {
  const attempts = Math.max(1, Math.floor(options.attempts ?? DEFAULT_PUT_ATTEMPTS));
  const firstDelayMs = Math.max(0, options.firstDelayMs ?? DEFAULT_FIRST_RETRY_DELAY_MS);
  const putOptions = { contentType: options.contentType, size: options.size };
  for (let attempt = 1; ; attempt++) {
    let body: Readable | Buffer | undefined;
    try {
      body = makeBody();
      await store.put(key, body, putOptions);
      return;
    } catch (thrown) {
      // A body the store gave up on may still hold a file open.
      if (body !== undefined && !Buffer.isBuffer(body) && !body.destroyed) body.destroy();
      const error = asStoreError(thrown, store, key);
      if (attempt >= attempts) throw error;
      options.onRetry?.(attempt, error);
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt, firstDelayMs)));
    }
  }
}

/** Stores reject with StoreError; anything else (makeBody failing to open its file) is wrapped so callers see one kind. */
function asStoreError(thrown: unknown, store: ObjectStore, key: string): StoreError {
  if (thrown instanceof StoreError) return thrown;
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  return new StoreError(`${store.displayUri.replace(/\/$/, '')}/${key}`, reason, { cause: thrown });
}
