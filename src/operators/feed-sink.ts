import { closeSync, openSync, writeSync } from 'node:fs';
import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { SeineError } from '../errors/seine-error.js';

export class FeedError extends SeineError {
  static readonly code = 'SEINE_FEED';
  constructor(path: string, reason: string) {
    super(FeedError.code, `Cannot write the feed '${path}': ${reason} (check that the folder exists and is writable, or choose another -o/-O path)`);
  }
}

export interface FeedSinkOptions {
  /** A file path, or '-' for standard output. */
  path: string;
  /** Overwrite (-O) or append (-o). */
  overwrite: boolean;
  /** How an item becomes one line. Default: JSON. */
  serialize?: (item: unknown) => string;
}

/**
 * Stage 7, feed sink (JSON Lines): writes each item as one line and flushes
 * it at once (a synchronous write), so Ctrl-C or a crash loses nothing
 * already scraped. The file is opened on subscription — a feed that cannot
 * be opened errors the stream before anything is crawled — and closed on
 * completion or teardown. Passes items through unchanged.
 */
export function feedSink<T>(options: FeedSinkOptions): MonoTypeOperatorFunction<T> {
  const serialize = options.serialize ?? ((item: unknown) => JSON.stringify(item));
  return (source) =>
    new Observable<T>((subscriber) => {
      let fd: number;
      try {
        fd = options.path === '-' ? 1 : openSync(options.path, options.overwrite ? 'w' : 'a');
      } catch (error) {
        subscriber.error(new FeedError(options.path, (error as Error).message));
        return;
      }
      const close = (): void => {
        if (fd !== 1 && fd >= 0) closeSync(fd);
        fd = -1;
      };
      const subscription = source.subscribe({
        next: (item) => {
          if (fd >= 0) writeSync(fd, serialize(item) + '\n');
          subscriber.next(item);
        },
        error: (error: unknown) => {
          close();
          subscriber.error(error);
        },
        complete: () => {
          close();
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        close();
      };
    });
}
