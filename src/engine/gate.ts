import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { EngineState } from './engine-state.js';

/**
 * The gate: while the engine is paused (inspectResponse), values arriving
 * here wait, in order, and flow on when it resumes. The scheduler checks the
 * same flag, so nothing new starts either; requests already in flight
 * finish and their responses wait here. Drops nothing; completes with its
 * source once nothing is held.
 */
export function gate<T>(state: EngineState): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const held: T[] = [];
      let sourceDone = false;
      const flush = (): void => {
        while (!state.paused && held.length > 0) subscriber.next(held.shift()!);
        if (sourceDone && held.length === 0) subscriber.complete();
      };
      const input = source.subscribe({
        next: (value) => {
          if (state.paused || held.length > 0) held.push(value);
          else subscriber.next(value);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          flush();
        },
      });
      const wake = state.paused$.subscribe(flush);
      return () => {
        input.unsubscribe();
        wake.unsubscribe();
      };
    });
}
