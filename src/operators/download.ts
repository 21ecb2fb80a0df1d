import { Observable, mergeMap, type OperatorFunction } from 'rxjs';
import type { Request } from '../http/request.js';
import { downloadThrough, measuredFetch, type DownloadOutcome } from '../core/downloader-chain.js';
import type { EngineState } from '../core/engine-state.js';

/**
 * Stage 4, download: runs the downloader middlewares around the fetch
 * (robots.txt is the first of them, RobotsTxtMiddleware at 100); a response
 * from the network gets `meta.download_latency` and a `response_downloaded`
 * event before the middlewares' processResponse (AutoThrottle). Emits one
 * outcome per request (a response or an error); a Request the middlewares
 * return instead (redirect, retry) goes back to the scheduler.
 * Unsubscribing aborts transfers in flight through the crawl's AbortSignal.
 */
export function download(state: EngineState): OperatorFunction<Request, DownloadOutcome> {
  const fetch = measuredFetch(state.fetch, (request, response) => state.emit({ type: 'response_downloaded', request, response }), state.now);
  return mergeMap((request) =>
    new Observable<DownloadOutcome>((subscriber) => {
      let live = true;
      const finish = (): void => {
        if (!live) return;
        live = false;
        state.downloading.delete(request);
        state.slots.finished(request, state.now());
        state.active--;
      };
      void (async () => {
        state.downloading.add(request);
        state.emit({ type: 'request_reached_downloader', request });
        const outcome = await downloadThrough(state.downloaderMiddlewares, request, state.spider, fetch);
        finish();
        state.emit({ type: 'request_left_downloader', request });
        if (outcome.kind === 'request') {
          state.schedule(outcome.next);
          state.end();
        } else {
          subscriber.next(outcome);
        }
        subscriber.complete();
      })().catch((error: unknown) => {
        finish();
        subscriber.next({ kind: 'error', request, error: error instanceof Error ? error : new Error(String(error)) });
        subscriber.complete();
      });
      return () => {
        if (live) finish();
      };
    }),
  );
}
