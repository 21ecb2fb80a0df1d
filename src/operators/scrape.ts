import { Observable, mergeMap, type OperatorFunction } from 'rxjs';
import type { Response } from '../http/response.js';
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
