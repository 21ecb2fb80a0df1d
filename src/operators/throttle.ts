import { Observable, type OperatorFunction } from 'rxjs';
import type { Request } from '../http/request.js';
import type { EngineState } from '../core/engine-state.js';

/**
 * Stage 3, throttle: holds each request until its download slot allows it
 * (CONCURRENT_REQUESTS_PER_DOMAIN / _PER_IP, DOWNLOAD_DELAY with
 * RANDOMIZE_DOWNLOAD_DELAY, a retry's backoff). The slots decide; this stage
 * owns the one timer, cleared on teardown.
 */
export function throttle(state: EngineState): OperatorFunction<Request, Request> {
  return (source) =>
    new Observable<Request>((subscriber) => {
      const waiting: Request[] = [];
      let timer: ReturnType<typeof setTimeout> | null = null;
      const release = (): void => {
        if (timer !== null) {
          clearTimeout(timer);
          timer = null;
        }
        if (state.paused) return;
        let soonest = Infinity;
        for (let i = 0; i < waiting.length; ) {
          const request = waiting[i]!;
          const now = state.now();
          const verdict = state.slots.canStart(request, now);
          if (verdict === true) {
            waiting.splice(i, 1);
            state.slots.started(request, now);
            subscriber.next(request);
          } else {
            soonest = Math.min(soonest, verdict);
            i++;
          }
        }
        if (soonest !== Infinity) timer = setTimeout(release, Math.max(1, soonest));
      };
      const input = source.subscribe({
        next: (request) => {
          waiting.push(request);
          release();
        },
        error: (error: unknown) => subscriber.error(error),
      });
      const wake = state.wake$.subscribe(() => {
        if (waiting.length > 0) release();
      });
      return () => {
        input.unsubscribe();
        wake.unsubscribe();
        if (timer !== null) clearTimeout(timer);
      };
    });
}
