import { Observable, mergeMap, type OperatorFunction } from 'rxjs';
import { releaseDocument, type Response } from '../http/response.js';
import type { SpiderOutput } from '../core/components.js';
import { callbackOutputs } from '../core/callback-output.js';
import type { DownloadOutcome } from '../core/downloader-chain.js';
import type { EngineState } from '../core/engine-state.js';
import { scrapeThrough } from '../core/spider-chain.js';

export interface Scraped {
  output: SpiderOutput;
  response: Response | null;
}

/**
 * Stage 5, callback: hands each response to its request's callback through
 * the spider middlewares (`this` is the spider), and each failed download to
 * its errback; emits what they produce. A callback's error is logged as
 * Scrapy does and counted, and never stops other requests.
 */
export function scrape(state: EngineState): OperatorFunction<DownloadOutcome, Scraped> {
  return mergeMap((outcome) =>
    new Observable<Scraped>((subscriber) => {
      let stopped = false;
      void (async () => {
        try {
          if (outcome.kind === 'response') {
            const { request, response } = outcome;
            state.emit({ type: 'response_received', request, response });
            const onError = (error: Error): void => state.emit({ type: 'spider_error', error, response });
            for await (const output of scrapeThrough(state.spiderMiddlewares, response, request, state.spider, onError)) {
              if (stopped) return;
              subscriber.next({ output, response });
            }
          } else if (outcome.kind === 'error') {
            const { request, error } = outcome;
            state.emit({ type: 'download_error', request, error });
            if (request.errback !== null) {
              for await (const output of callbackOutputs(request.errback.call(state.spider, error, request))) {
                if (stopped) return;
                subscriber.next({ output, response: null });
              }
            }
          }
        } catch (error) {
          state.emit({ type: 'spider_error', error: error instanceof Error ? error : new Error(String(error)), response: outcome.kind === 'response' ? outcome.response : null });
        } finally {
          // The page's DOM is garbage now, but objects of its download that V8 has moved to old
          // space (promises and async frames resolved with the response) still point at the
          // response until the next full GC, and through it at the DOM, so every minor GC kept
          // the tree alive and promoted it. Dropping it here: --trace-gc-nvp's promoted bytes in
          // `npm run bench:crawl` 483 → 107 MB per 2,000 pages (with src/xpath/preorder.ts's fix).
          // A response kept after its callback (an item pipeline, a user's list) parses again on
          // its next css()/xpath().
          if (outcome.kind === 'response') releaseDocument(outcome.response);
          state.end();
          subscriber.complete();
        }
      })();
      return () => {
        stopped = true;
      };
    }),
  );
}
