import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { schedule, type Ticket } from '../../src/operators/index.js';
import { ArrayScheduler, makeState, pathOf, req, ticketLine, type StateParts } from './fakes.js';

/**
 * Stage 2 (src/engine/schedule.ts) alone, fed through `state.requests$`
 * as the engine feeds it.
 *
 * Virtual time: the stage hands requests out on a global `setImmediate`
 * (so that everything one callback yields is queued before the first is
 * picked). TestScheduler's run mode virtualises only RxJS's own schedulers
 * (its timeout/interval/immediate *providers*), not the global
 * setImmediate this stage calls, so marbles cannot drive it. Jest's fake
 * timers replace the global setImmediate/clearImmediate: the pending pump
 * is visible (`jest.getTimerCount()`), runs when the test says
 * (`jest.runOnlyPendingTimers()`), and its clearing on teardown is
 * observable. Everything else the stage reacts to (tickets.changed$,
 * paused$) is a synchronous Subject, so it is asserted right after the call.
 */

beforeEach(() => {
  // nextTick and queueMicrotask stay real: nothing here needs them faked.
  jest.useFakeTimers({ now: 0, doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});

function run(parts: StateParts = {}) {
  const harness = makeState({ maxActive: 2, ...parts });
  const out: Ticket[] = [];
  const errors: unknown[] = [];
  let completed = false;
  const subscription = harness.state.requests$.pipe(schedule(harness.state)).subscribe({
    next: (ticket) => out.push(ticket),
    error: (error: unknown) => errors.push(error),
    complete: () => (completed = true),
  });
  return { ...harness, out, errors, subscription, paths: () => out.map((ticket) => pathOf(ticket.request)), completed: () => completed };
}

describe('schedule: what it hands out', () => {
  it('queues everything sent in one go, then hands out by priority on the next turn, up to maxActive', () => {
    const t = run();
    t.state.schedule(req('/low', { priority: 0 }));
    t.state.schedule(req('/high', { priority: 10 }));
    t.state.schedule(req('/mid', { priority: 5 }));
    t.state.schedule(req('/one', { priority: 1 }));
    // Nothing is picked synchronously: one pump is pending for the four.
    expect(t.out).toEqual([]);
    expect(jest.getTimerCount()).toBe(1);
    expect(t.lines()).toEqual(['request_scheduled /low', 'request_scheduled /high', 'request_scheduled /mid', 'request_scheduled /one']);

    jest.runOnlyPendingTimers();
    expect(t.paths()).toEqual(['/high', '/mid']);
    expect(t.out.map(ticketLine)).toEqual([['/high', 'taken'], ['/mid', 'taken']]);
    expect(t.state.active).toBe(2);
    expect(t.state.tickets.open).toBe(2);
    expect(t.scheduler.queue.map(pathOf)).toEqual(['/one', '/low']);
    expect(jest.getTimerCount()).toBe(0);
    expect(t.completed()).toBe(false);
  });

  it('hands out the next request when a ticket leaves the active phases (move to callback, settle), not before', () => {
    const t = run();
    for (const [path, priority] of [['/a', 3], ['/b', 2], ['/c', 1], ['/d', 0]] as const) t.state.schedule(req(path, { priority }));
    jest.runOnlyPendingTimers();
    const [a, b] = t.out as [Ticket, Ticket];
    expect(t.paths()).toEqual(['/a', '/b']);

    // taken → downloading is still active: no capacity freed.
    t.state.tickets.move(a, 'downloading');
    expect(t.paths()).toEqual(['/a', '/b']);

    // downloading → callback frees one place: /c at once, synchronously.
    t.state.tickets.move(a, 'callback');
    expect(t.paths()).toEqual(['/a', '/b', '/c']);
    expect(t.state.active).toBe(2);

    // A ticket settled while still taken (a throttle fault) frees one too.
    t.state.tickets.settle(b, 'failed');
    expect(t.paths()).toEqual(['/a', '/b', '/c', '/d']);

    // Settling a ticket already out of the active phases frees nothing more; the queue is empty anyway.
    t.state.tickets.settle(a, 'done');
    expect(t.paths()).toEqual(['/a', '/b', '/c', '/d']);
    expect(t.scheduler.acknowledged).toEqual([['/b', 'failed'], ['/a', 'done']]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('hands out nothing while paused, and what is queued on resume', () => {
    const t = run();
    t.state.pause();
    t.state.schedule(req('/a'));
    t.state.schedule(req('/b', { priority: 1 }));
    t.state.schedule(req('/c'));
    jest.runOnlyPendingTimers();
    expect(t.out).toEqual([]);
    // Paused requests are still queued (and announced), not dropped.
    expect(t.lines()).toEqual(['request_scheduled /a', 'request_scheduled /b', 'request_scheduled /c']);
    expect(t.scheduler.queue.map(pathOf)).toEqual(['/b', '/a', '/c']);

    // A ticket freed while paused does not start anything either.
    t.state.tickets.changed$.next();
    expect(t.out).toEqual([]);

    t.state.resume();
    expect(t.paths()).toEqual(['/b', '/a']);
    expect(t.scheduler.queue.map(pathOf)).toEqual(['/c']);
  });

  it('hands out nothing after beginClose: what is queued is dropped with `closing`', () => {
    const t = run({ maxActive: 1 });
    t.state.schedule(req('/a'));
    t.state.schedule(req('/b'));
    t.state.schedule(req('/c'));
    jest.runOnlyPendingTimers();
    const [a] = t.out as [Ticket];
    expect(t.paths()).toEqual(['/a']);

    t.state.beginClose('finished');
    t.state.tickets.settle(a, 'done');
    jest.runAllTimers();
    expect(t.paths()).toEqual(['/a']);
    expect(t.lines()).toEqual([
      'request_scheduled /a',
      'request_scheduled /b',
      'request_scheduled /c',
      'request_dropped /b closing',
      'request_dropped /c closing',
    ]);
  });

  it('does not hand out what was queued in the same turn as beginClose', () => {
    const t = run();
    t.state.schedule(req('/a'));
    t.state.beginClose('shutdown');
    jest.runAllTimers();
    expect(t.out).toEqual([]);
    expect(t.lines()).toEqual(['request_scheduled /a', 'request_dropped /a closing']);
  });
});

describe('schedule: what it drops, and which event says so', () => {
  it('drops a duplicate (enqueue → false) with request_dropped `duplicate` and no request_scheduled', () => {
    const t = run();
    t.state.schedule(req('/a'));
    t.state.schedule(req('/a'));
    t.state.schedule(req('/a', { dontFilter: true }));
    jest.runOnlyPendingTimers();
    expect(t.lines()).toEqual(['request_scheduled /a', 'request_dropped /a duplicate', 'request_scheduled /a']);
    expect(t.out.map(ticketLine)).toEqual([['/a', 'taken'], ['/a', 'taken']]);
    expect(t.out[1]!.request!.dontFilter).toBe(true);
  });

  it('drops a request arriving after close with `closing`, without queueing it', () => {
    const t = run();
    t.state.beginClose('finished');
    t.state.schedule(req('/late'));
    expect(t.lines()).toEqual(['request_dropped /late closing']);
    expect(t.scheduler.queue).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
    jest.runAllTimers();
    expect(t.out).toEqual([]);
  });

  it('keeps a request arriving after close when enqueueAfterClose stores it (JOBDIR): no event, nothing handed out', () => {
    const scheduler = new ArrayScheduler();
    const stored: string[] = [];
    scheduler.dropPending = () => scheduler.queue.splice(0);
    scheduler.enqueueAfterClose = (request) => {
      stored.push(pathOf(request));
      return true;
    };
    const t = run({ scheduler });
    t.state.beginClose('shutdown');
    t.state.schedule(req('/late'));
    expect(stored).toEqual(['/late']);
    expect(t.lines()).toEqual([]);
    jest.runAllTimers();
    expect(t.out).toEqual([]);
  });

  it('drops with `closing` when enqueueAfterClose declines the request', () => {
    const scheduler = new ArrayScheduler();
    scheduler.dropPending = () => scheduler.queue.splice(0);
    scheduler.enqueueAfterClose = () => false;
    const t = run({ scheduler });
    t.state.beginClose('shutdown');
    t.state.schedule(req('/late'));
    expect(t.lines()).toEqual(['request_dropped /late closing']);
  });

  it('turns a throw from enqueue into engine_error (stage schedule) + request_dropped `error`; the next requests are still scheduled', () => {
    const scheduler = new ArrayScheduler();
    scheduler.enqueueThrowsFor.add('/bad');
    const t = run({ scheduler, maxActive: 5 });
    t.state.schedule(req('/a'));
    t.state.schedule(req('/bad'));
    t.state.schedule(req('/c'));
    expect(t.lines()).toEqual([
      'request_scheduled /a',
      'engine_error schedule /bad queue broken for /bad',
      'request_dropped /bad error',
      'request_scheduled /c',
    ]);
    const fault = t.events[1];
    expect(fault?.type === 'engine_error' && fault.error).toEqual(new Error('queue broken for /bad'));
    jest.runOnlyPendingTimers();
    expect(t.paths()).toEqual(['/a', '/c']);
    expect(t.errors).toEqual([]);
  });

  it('errors the stream when scheduler.next throws (the engine fault ends the crawl), and stops listening', () => {
    const t = run();
    const broken = new Error('queue file unreadable');
    t.state.schedule(req('/a'));
    t.scheduler.nextThrows = broken;
    jest.runOnlyPendingTimers();
    expect(t.out).toEqual([]);
    expect(t.errors).toEqual([broken]);
    expect(t.state.requests$.observers.length).toBe(1); // only the harness's recorder is left
    expect(t.state.tickets.changed$.observed).toBe(false);
    expect(t.state.tickets.open).toBe(0);
  });

  it('errors the stream when scheduler.next throws on a wake-up (a ticket freed)', () => {
    const t = run({ maxActive: 1 });
    t.state.schedule(req('/a'));
    t.state.schedule(req('/b'));
    jest.runOnlyPendingTimers();
    const broken = new Error('queue file unreadable');
    t.scheduler.nextThrows = broken;
    t.state.tickets.settle(t.out[0]!, 'done');
    expect(t.paths()).toEqual(['/a']);
    expect(t.errors).toEqual([broken]);
    expect(t.state.tickets.changed$.observed).toBe(false);
  });

  it('passes an error of its source on', () => {
    const t = run();
    const failure = new Error('upstream');
    t.state.requests$.error(failure);
    expect(t.errors).toEqual([failure]);
  });
});

describe('schedule: teardown', () => {
  it('unsubscribing clears the pending setImmediate: nothing is handed out afterwards', () => {
    const t = run();
    t.state.schedule(req('/a'));
    expect(jest.getTimerCount()).toBe(1);
    t.subscription.unsubscribe();
    expect(jest.getTimerCount()).toBe(0);
    jest.runAllTimers();
    t.state.tickets.changed$.next();
    t.state.pause();
    t.state.resume();
    expect(t.out).toEqual([]);
    expect(t.state.tickets.open).toBe(0);
    expect(t.scheduler.queue.map(pathOf)).toEqual(['/a']);
  });

  it('unsubscribing stops listening to requests$, changed$ and paused$', () => {
    const t = run();
    t.subscription.unsubscribe();
    expect(t.state.requests$.observers.length).toBe(1); // the harness's recorder
    expect(t.state.tickets.changed$.observed).toBe(false);
    expect(t.state.paused$.observed).toBe(false);
    t.state.schedule(req('/a'));
    expect(t.lines()).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
