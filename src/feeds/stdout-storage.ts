/**
 * The `-o -` feed: standard output, written through `process.stdout` as a
 * stream. Node makes a pipe's descriptor non-blocking, so a synchronous
 * write into a pipe whose reader is slow fails with EAGAIN; retrying it
 * spun a core for as long as the reader slept (20 s of CPU in 20 s, the
 * event loop frozen). The stream instead queues the bytes in order and
 * waits for the pipe in the event loop; `write()` returning false
 * (backpressure) is reported so the crawl can pause until 'drain'. Node
 * writes what is queued before the process exits, so the end of the feed
 * is never cut off.
 *
 * A write that fails — EPIPE when the reader has gone (`-o - | head`),
 * ENOSPC for `-o - > file` on a full disk — is reported once, through
 * `failed` when it arrives later than the write, and every later write
 * throws that same error.
 */
import type { Writable } from 'node:stream';
import { FeedError } from './feed-errors.js';
import type { FeedStorage } from './feed-storage.js';

export interface StdoutStorageOptions {
  /** Called with true when the stream's buffer is full, with false once it drained. */
  backpressure?: (full: boolean) => void;
  /** Called once with a failure that arrived after its write returned (an asynchronous EPIPE). */
  failed?: (error: FeedError) => void;
  /** The stream to write; process.stdout unless a test passes its own. */
  stream?: Writable;
}

/** A system error as `CODE: message`, without Node's `, write` suffix. */
export function systemReason(error: unknown): { reason: string; code: string | undefined } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const message = String((error as Error | null)?.message ?? error).replace(/, (write|open|close|fsync)$/, '');
  return { reason: message, code: typeof code === 'string' ? code : undefined };
}

export function openStdoutStorage(uri: string, options: StdoutStorageOptions = {}): FeedStorage {
  const stream = options.stream ?? process.stdout;
  let failure: FeedError | null = null;
  let full = false;
  const drained = (): void => {
    full = false;
    options.backpressure?.(false);
  };
  const fail = (error: unknown, late: boolean): FeedError => {
    if (failure !== null) return failure;
    const { reason, code } = systemReason(error);
    failure = new FeedError(uri, reason, code);
    // 'drain' will never come now: a crawl paused for it would wait forever.
    if (full) {
      full = false;
      stream.off('drain', drained);
      options.backpressure?.(false);
    }
    if (late) options.failed?.(failure);
    return failure;
  };
  // Listening keeps an EPIPE from being an uncaught 'error' (and tells bin/seine.js that a feed handles it).
  const onError = (error: Error): void => void fail(error, true);
  stream.on('error', onError);
  // Once closed and flushed, stop listening: crawls run one after another in a process would pile up listeners.
  // Bytes still queued keep it (a late EPIPE is then still this feed's, and quiet), and so does a failure: the
  // stream's 'error' event follows the write's callback, and unheard it would end the process (bin/seine.js).
  const detach = (): void => {
    if (failure === null && stream.writableLength === 0) stream.off('error', onError);
  };
  return {
    kind: 'StdoutFeedStorage',
    write: (bytes) => {
      if (failure !== null) throw failure;
      let accepted: boolean;
      try {
        accepted = stream.write(bytes, (error) => {
          if (error) fail(error, true);
        });
      } catch (error) {
        // A file on standard output (`-o - > out.jsonl`) is written synchronously: its errors throw here.
        throw fail(error, false);
      }
      if (!accepted && !full) {
        full = true;
        stream.once('drain', drained);
        options.backpressure?.(true);
      }
    },
    close: detach,
    abort: detach,
    size: () => 0,
  };
}
