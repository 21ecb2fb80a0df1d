import { Observable, mergeMap, type OperatorFunction } from 'rxjs';
import { downloadThrough, measuredFetch, type DownloadOutcome } from './downloader-chain.js';
import { isCloseSpider } from '../contracts/control-flow.js';
import type { EngineState } from './engine-state.js';
import type { Ticket } from './ticket.js';

/** A download's outcome with the ticket of its request. */
export type DownloadedTicket = DownloadOutcome & { ticket: Ticket };

/**
 * Stage 4, download: runs the downloader middlewares around the fetch
 * (robots.txt is the first of them, RobotsTxtMiddleware at 100); a response
 * from the network gets `meta.download_latency` and a `response_downloaded`
 * event before the middlewares' processResponse (AutoThrottle). Emits one
 * outcome per ticket (a response or an error), the ticket moved to its
 * `callback` phase. A Request the middlewares return instead (redirect,
 * retry) goes back to the scheduler and the ticket is done; a CloseSpider
 * from a middleware closes the crawl with its reason. Unsubscribing aborts
 * transfers in flight through the crawl's AbortSignal.
 */
export function download(state: EngineState): OperatorFunction<Ticket, DownloadedTicket> {
  const fetch = measuredFetch(state.fetch, (request, response) => state.emit({ type: 'response_downloaded', request, response }), state.now);
  return mergeMap((ticket) =>
    new Observable<DownloadedTicket>((subscriber) => {
      const request = ticket.request!;
      let live = true;
      /** The download ended (however, also torn down): its slot frees and the ticket leaves the active phases. */
      const leave = (): void => {
        if (!live) return;
        live = false;
        state.downloading.delete(request);
        try {
          state.slots.finished(request, state.now());
        } catch (error) {
          state.fault('throttle', request, error);
        }
        state.tickets.move(ticket, 'callback');
      };
      state.tickets.move(ticket, 'downloading');
      state.downloading.add(request);
      state.emit({ type: 'request_reached_downloader', request });
      void downloadThrough(state.downloaderMiddlewares, request, state.spider, fetch)
        .catch((thrown: unknown): DownloadOutcome => ({ kind: 'error', request, error: thrown instanceof Error ? thrown : new Error(String(thrown)) }))
        .then((outcome) => {
          if (!live) return; // torn down meanwhile
          leave();
          state.emit({ type: 'request_left_downloader', request });
          if (outcome.kind === 'request') {
            state.schedule(outcome.next);
            state.tickets.settle(ticket, 'done');
          } else if (outcome.kind === 'error' && isCloseSpider(outcome.error)) {
            state.beginClose(outcome.error.reason);
            state.tickets.settle(ticket, 'failed');
          } else {
            subscriber.next({ ...outcome, ticket });
          }
          subscriber.complete();
        });
      // Torn down (the crawl cancelled): the slot frees, and the ticket stays open, so a JOBDIR does not acknowledge it.
      return leave;
    }),
  );
}
