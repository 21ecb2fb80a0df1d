import { Observable, defer, finalize, mergeMap, type OperatorFunction } from 'rxjs';
import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { defaultLogBus } from '../../log/index.js';
import { NULL_STATS, type ComponentOptions } from '../../middlewares/spider/component-options.js';
import { fetchWith, type FetchSettings } from './fetch-defaults.js';

export interface DownloadWithOptions extends FetchSettings, ComponentOptions {
  /** Downloads in flight at most (CONCURRENT_REQUESTS); default 16. */
  concurrency?: number;
}

/**
 * Downloads each request with `fetch`, at most `concurrency` at once, and
 * emits the responses in the order they arrive. Any HTTP status is a
 * response (there are no redirect, retry or http-error middlewares here:
 * filter on `response.status` yourself, or use the engine through `crawl()`).
 *
 * Drops: requests whose download fails (connection refused, DNS, timeout,
 * …), logged `Error downloading <GET url>: <message>` at ERROR on
 * `seine.core.scraper` and counted as `downloader/exception_count` and
 * `downloader/exception_type_count/<error name>`. A failure never errors the
 * stream. Counts `downloader/request_count`, `downloader/response_count`
 * and `downloader/response_status_count/<status>` too.
 *
 * Completes when the source has completed and the last download has
 * finished. Unsubscribing aborts every transfer in flight.
 */
export function downloadWith(options: DownloadWithOptions): OperatorFunction<Request, Response> {
  const stats = options.stats ?? NULL_STATS;
  const logger = (options.logBus ?? defaultLogBus).getLogger('seine.core.scraper');
  const concurrency = options.concurrency ?? 16;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`downloadWith: concurrency must be a whole number ≥ 1, got ${String(concurrency)}`);
  }
  return (source) =>
    defer(() => {
      const abort = new AbortController();
      return source.pipe(
        mergeMap(
          (request) =>
            new Observable<Response>((subscriber) => {
              stats.inc('downloader/request_count');
              fetchWith(options, request, abort.signal).then(
                (response) => {
                  stats.inc('downloader/response_count');
                  stats.inc(`downloader/response_status_count/${response.status}`);
                  subscriber.next(response);
                  subscriber.complete();
                },
                (error: unknown) => {
                  // An abort comes from our own teardown: nobody is listening any more.
                  if (abort.signal.aborted) return;
                  const err = error instanceof Error ? error : new Error(String(error));
                  logger.error(`Error downloading ${request.toString()}: ${err.message}`, { error: err });
                  stats.inc('downloader/exception_count');
                  stats.inc(`downloader/exception_type_count/${err.name}`);
                  subscriber.complete();
                },
              );
            }),
          concurrency,
        ),
        finalize(() => abort.abort()),
      );
    });
}
