import { Observable, merge, skip, type OperatorFunction } from 'rxjs';
import type { EngineState } from './engine-state.js';
import type { Ticket } from './ticket.js';

/**
 * Stage 3, throttle: holds each ticket until its request's download slot
 * allows it (CONCURRENT_REQUESTS_PER_DOMAIN / _PER_IP, DOWNLOAD_DELAY with
 * RANDOMIZE_DOWNLOAD_DELAY, a retry's backoff). The slots decide; this stage
 * owns the one timer, cleared on teardown. Slots that throw for a request
 * fail that ticket (an `engine_error`, the request dropped with `error`);
 * the others wait on. Completes when its source has and no ticket waits.
 */
export function throttle(state: EngineState): OperatorFunction<Ticket, Ticket> {
  return (source) =>
    new Observable<Ticket>((subscriber) => {
      const waiting: Ticket[] = [];
      let timer: ReturnType<typeof setTimeout> | null = null;
      let sourceDone = false;
      // Settling a ticket inside the loop wakes this stage again (tickets.changed$): that call only
      // asks for another pass, so the loop and its one timer are never run twice at once.
      let releasing = false;
      let again = false;
      const release = (): void => {
        if (releasing) {
          again = true;
          return;
        }
        releasing = true;
        try {
          do {
            again = false;
            releaseOnce();
          } while (again);
        } finally {
          releasing = false;
        }
        if (sourceDone && waiting.length === 0) subscriber.complete();
      };
      const releaseOnce = (): void => {
        if (timer !== null) {
          clearTimeout(timer);
          timer = null;
        }
        if (state.paused) return;
        if (waiting.length > 0 && !state.downloaderReady(release)) return;
        let soonest = Infinity;
        for (let i = 0; i < waiting.length; ) {
          const ticket = waiting[i]!;
          const request = ticket.request!;
          const now = state.now();
          let verdict: true | number;
          try {
            verdict = state.slots.canStart(request, now);
            if (verdict === true) state.slots.started(request, now);
          } catch (error) {
            waiting.splice(i, 1);
            state.fault('throttle', request, error);
            state.drop(request, 'error');
            state.tickets.settle(ticket, 'failed');
            continue;
          }
          if (verdict === true) {
            waiting.splice(i, 1);
            subscriber.next(ticket);
          } else {
            soonest = Math.min(soonest, verdict);
            i++;
          }
        }
        if (soonest !== Infinity) timer = setTimeout(release, Math.max(1, soonest));
      };
      const input = source.subscribe({
        next: (ticket) => {
          waiting.push(ticket);
          release();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          release();
        },
      });
      // A slot frees when a download ends (its ticket leaves the active phases); the gate reopens on resume.
      const wake = merge(state.tickets.changed$, state.paused$.pipe(skip(1))).subscribe(() => {
        if (waiting.length > 0) release();
      });
      return () => {
        input.unsubscribe();
        wake.unsubscribe();
        if (timer !== null) clearTimeout(timer);
      };
    });
}
