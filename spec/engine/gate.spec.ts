import { describe, expect, it } from '@jest/globals';
import { tap } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { gate } from '../../src/operators/index.js';
import { makeState } from './fakes.js';

/**
 * The gate (src/engine/gate.ts) alone, in marbles. It has no timer of its
 * own: it reacts to its source and to `state.paused$`, both synchronous, so
 * TestScheduler's run mode drives it entirely in virtual time. A hot
 * `control` observable pauses (`p`) and resumes (`r`) the engine at given
 * frames; the diagrams say what comes out when.
 */

const testScheduler = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** Pauses on `p`, resumes on `r`, at the frames of `marbles`. */
function drive(state: ReturnType<typeof makeState>['state'], hot: TestScheduler['createHotObservable'], marbles: string): void {
  hot(marbles).subscribe((signal) => (signal === 'p' ? state.pause() : state.resume()));
}

describe('gate', () => {
  it('passes values through, unchanged and at once, while open', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const { state } = makeState();
      const source = cold('a-b--c|');
      expectObservable(source.pipe(gate(state))).toBe('a-b--c|');
      expectSubscriptions(source.subscriptions).toBe('^-----!');
    });
  });

  it('holds values in order while paused and flushes them together on resume, then passes again', () => {
    testScheduler().run(({ hot, cold, expectObservable }) => {
      const { state } = makeState();
      drive(state, hot, '--p-----r');
      // A group takes as many frames as it has characters: (bc) at 8, d at 12.
      const source = cold('a--b-c------d|');
      expectObservable(source.pipe(gate(state))).toBe('a-------(bc)d|');
    });
  });

  it('keeps holding when paused again before resuming; a value arriving after resume comes after the held ones', () => {
    testScheduler().run(({ hot, cold, expectObservable }) => {
      const { state } = makeState();
      drive(state, hot, 'p--r-p--r');
      // At frame 8 the resume comes first (the control was set up first), then d: after c.
      const source = cold('a-b---c-d----|');
      expectObservable(source.pipe(gate(state))).toBe('---(ab)-(cd)-|');
    });
  });

  it('completes only after flushing what it held', () => {
    testScheduler().run(({ hot, cold, expectObservable }) => {
      const { state } = makeState();
      drive(state, hot, '-p----r');
      const source = cold('a-b|');
      expectObservable(source.pipe(gate(state))).toBe('a-----(b|)');
    });
  });

  it('completes at once when its source completes while paused with nothing held', () => {
    testScheduler().run(({ hot, cold, expectObservable }) => {
      const { state } = makeState();
      drive(state, hot, '-p----r');
      const source = cold('a--|');
      expectObservable(source.pipe(gate(state))).toBe('a--|');
    });
  });

  it('stops flushing when the engine pauses again during a flush (a value handed on paused it)', () => {
    testScheduler().run(({ hot, cold, expectObservable }) => {
      const { state } = makeState();
      drive(state, hot, 'p---r---r');
      const source = cold('abc|');
      const out = source.pipe(
        gate(state),
        tap((value) => {
          if (value === 'b') state.pause();
        }),
      );
      expectObservable(out).toBe('----(ab)(c|)');
    });
  });

  it('passes an error on at once', () => {
    testScheduler().run(({ hot, cold, expectObservable }) => {
      const { state } = makeState();
      drive(state, hot, '-p');
      const source = cold('a-b-#');
      expectObservable(source.pipe(gate(state))).toBe('a---#');
    });
  });

  it('unsubscribing stops it: what it held is not delivered on resume, and paused$ is no longer watched', () => {
    const scheduler = testScheduler();
    const { state } = makeState();
    scheduler.run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      drive(state, hot, '-p------r');
      const source = cold('a-b-c-d|');
      expectObservable(source.pipe(gate(state)), '^----!').toBe('a----');
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
    // The gate's subscription to paused$ went with it.
    expect(state.paused$.observed).toBe(false);
  });
});
