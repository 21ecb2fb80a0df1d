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
      const input = source.subscribe({
        next: (request) => {
          if (state.closeReason !== null || !state.scheduler.enqueue(request)) {
            state.end(); // dropped: a duplicate, or the crawl is closing
            return;
          }
          state.emit({ type: 'request_scheduled', request });
          pump();
        },
        error: (error: unknown) => subscriber.error(error),
      });
      const wake = state.wake$.subscribe(pump);
      return () => {
        input.unsubscribe();
        wake.unsubscribe();
      };
    });
}
