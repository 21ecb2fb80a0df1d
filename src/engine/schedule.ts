import { NEVER, Observable, merge, skip, type OperatorFunction } from 'rxjs';
import type { Request } from '../http/request.js';
import type { EngineState } from './engine-state.js';
import type { Ticket } from './ticket.js';

/**
 * Stage 2, scheduler: enqueues every request and hands them out by priority
 * as tickets (src/engine/ticket.ts) while fewer than CONCURRENT_REQUESTS
 * tickets are active, the gate is open and the crawl is not closing.
 *
 * Drops (each a `request_dropped` event): duplicates (`duplicate`, with the
 * scheduler's log line and `dupefilter/filtered`), requests arriving while
 * the crawl closes (`closing`; a JOBDIR scheduler keeps them for the next
 * run instead), and requests the scheduler threw on (`error`, with an
 * `engine_error` for that request). Never completes by itself: the engine
 * ends the flow when the crawl is idle. Unsubscribing clears its timer.
 */
export function schedule(state: EngineState): OperatorFunction<Request, Ticket> {
  return (source) =>
    new Observable<Ticket>((subscriber) => {
      const pump = (): void => {
        while (!state.paused && state.closeReason === null && state.active < state.maxActive) {
          let next: Request | undefined;
          try {
            next = state.scheduler.next();
          } catch (error) {
            // A queue that cannot hand out its requests is the engine's own fault: the crawl ends (cleanly, by the crawler).
            subscriber.error(error);
            return;
          }
          if (next === undefined) return;
          subscriber.next(state.tickets.take(next));
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
      const enqueue = (request: Request): void => {
        try {
          if (state.closeReason !== null) {
            // What a callback still running yields while the crawl closes is kept for the next run with JOBDIR, as in Scrapy.
            if (state.keepsQueue?.enqueueAfterClose(request) !== true) state.drop(request, 'closing');
            return;
          }
          if (!state.scheduler.enqueue(request)) {
            state.drop(request, 'duplicate');
            return;
          }
        } catch (error) {
          state.fault('schedule', request, error);
          state.drop(request, 'error');
          return;
        }
        state.emit({ type: 'request_scheduled', request });
        pumpSoon();
      };
      const input = source.subscribe({ next: enqueue, error: (error: unknown) => subscriber.error(error) });
      // Capacity frees when a ticket leaves the active phases; the gate reopens on resume.
      const wake = merge(state.tickets.changed$, state.paused$.pipe(skip(1)), state.sharedQueue?.changed$ ?? NEVER).subscribe(pump);
      return () => {
        input.unsubscribe();
        wake.unsubscribe();
        if (soon !== null) clearImmediate(soon);
      };
    });
}
