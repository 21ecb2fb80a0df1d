import { Observable, mergeMap, type OperatorFunction } from 'rxjs';
import { releaseDocument, type Response } from '../http/response.js';
import type { SpiderOutput } from '../contracts/components.js';
import { callbackOutputs } from '../contracts/callback-output.js';
import { isCloseSpider, isIgnoreRequest } from '../contracts/control-flow.js';
import type { DropReason } from '../contracts/events.js';
import type { EngineState } from './engine-state.js';
import { scrapeInto } from './spider-chain.js';
import type { Ticket } from './ticket.js';
import type { DownloadedTicket } from './download.js';

export interface Scraped {
  output: SpiderOutput;
  response: Response | null;
  /** The ticket of the request whose callback produced it; it stays open while the output is on its way. */
  ticket: Ticket;
}

/**
 * Stage 5, callback: hands each response to its request's callback through
 * the spider middlewares (`this` is the spider), and each failed download to
 * its errback; emits what they produce. A callback's error is logged as
 * Scrapy does and counted, and never stops other requests; a CloseSpider
 * closes the crawl with its reason. The ticket is settled when the callback
 * has finished (`done`, or `failed` when it threw); it closes once the items
 * it produced have gone through the item pipeline.
 */
export function scrape(state: EngineState): OperatorFunction<DownloadedTicket, Scraped> {
  const onError = (error: Error, response: Response | null): void => {
    if (isCloseSpider(error)) state.beginClose(error.reason);
    else if (!state.failOn(error)) state.emit({ type: 'spider_error', error, response });
  };
  return mergeMap((outcome) =>
    new Observable<Scraped>((subscriber) => {
      const { ticket } = outcome;
      let stopped = false;
      let failed = false;
      void (async () => {
        try {
          if (outcome.kind === 'response') {
            const { request, response } = outcome;
            state.emit({ type: 'response_received', request, response });
            const unhandled = (error: Error): void => {
              failed = true;
              onError(error, response);
            };
            await scrapeInto(state.spiderMiddlewares, response, request, state.spider, unhandled, (output) => {
              if (stopped) return false;
              subscriber.next({ output, response, ticket });
              return true;
            });
            if (stopped) return;
          } else if (outcome.kind === 'error') {
            const { request, error } = outcome;
            if (state.failOn(error)) {
              failed = true;
              return;
            }
            if (isIgnoreRequest(error)) state.drop(request, (error as { dropReason?: DropReason }).dropReason ?? 'ignored');
            state.emit({ type: 'download_error', request, error });
            if (request.errback !== null) {
              for await (const output of callbackOutputs(request.errback.call(state.spider, error, request))) {
                if (stopped) return;
                subscriber.next({ output, response: null, ticket });
              }
            } else {
              failed = true;
            }
          }
        } catch (error) {
          failed = true;
          onError(error instanceof Error ? error : new Error(String(error)), outcome.kind === 'response' ? outcome.response : null);
        } finally {
          // The page's DOM is garbage now, but objects of its download that V8 has moved to old
          // space (promises and async frames resolved with the response) still point at the
          // response until the next full GC, and through it at the DOM, so every minor GC kept
          // the tree alive and promoted it. Dropping it here: --trace-gc-nvp's promoted bytes in
          // `npm run bench:crawl` 483 → 107 MB per 2,000 pages (with src/xpath/preorder.ts's fix).
          // A response kept after its callback (an item pipeline, a user's list) parses again on
          // its next css()/xpath().
          if (outcome.kind === 'response') releaseDocument(outcome.response);
          // Torn down (the crawl cancelled): the ticket stays open, so a JOBDIR does not acknowledge work that was cut short.
          if (!stopped) state.tickets.settle(ticket, failed ? 'failed' : 'done');
          subscriber.complete();
        }
      })();
      return () => {
        stopped = true;
      };
    }),
  );
}
