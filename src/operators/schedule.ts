import { Observable, type OperatorFunction } from 'rxjs';
import type { Request } from '../http/request.js';
import type { EngineState } from '../core/engine-state.js';

/**
 * Stage 2, scheduler: enqueues every request (duplicates are dropped here,
 * with the scheduler's log line and `dupefilter/filtered`), and emits them
 * by priority as long as fewer than CONCURRENT_REQUESTS are active, the gate
 * is open and the crawl is not closing. Never completes by itself: the
 * engine ends the flow when the crawl is idle.
 */
export function schedule(state: EngineState): OperatorFunction<Request, Request> {
  return (source) =>
    new Observable<Request>((subscriber) => {
      const pump = (): void => {
        while (!state.paused && state.closeReason === null && state.active < state.maxActive) {
          const next = state.scheduler.next();
          if (next === undefined) return;
          state.active++;
          subscriber.next(next);
        }
      };
      // Requests a callback yields in one go are all queued before the
      // scheduler picks the next one (Scrapy's engine loop runs on the next
      // reactor turn): picking at once would start the first yielded request
      // whatever its priority, and depth-first order would start breadth-first.
      let soon: ReturnType<typeof setImmediate> | null = null;
      const pumpSoon = (): void => {
        soon ??= setImmediate(() => {
          soon = null;
          pump();
        });
      };
      const input = source.subscribe({
        next: (request) => {
          if (state.closeReason !== null) {
            // What a callback still running yields while the crawl closes is kept for the next run with JOBDIR, as in Scrapy.
            state.scheduler.enqueueAfterClose?.(request);
            state.end();
            return;
          }
          if (!state.scheduler.enqueue(request)) {
            state.end(); // dropped: a duplicate
            return;
          }
          state.emit({ type: 'request_scheduled', request });
          pumpSoon();
        },
        error: (error: unknown) => subscriber.error(error),
      });
      const wake = state.wake$.subscribe(pump);
      return () => {
        input.unsubscribe();
        wake.unsubscribe();
        if (soon !== null) clearImmediate(soon);
      };
    });
}
