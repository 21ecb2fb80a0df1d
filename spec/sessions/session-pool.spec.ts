import { describe, expect, it } from '@jest/globals';
import { SessionPool, type RetireReason } from '../../src/sessions/index.js';

function pool(options: { size: number; maxUsage: number; picks?: number[] }) {
  const retired: Array<[string, RetireReason]> = [];
  const discarded: string[] = [];
  const picks = [...(options.picks ?? [])];
  const sessions = new SessionPool({
    size: options.size,
    maxUsage: options.maxUsage,
    onRetired: (session, reason) => retired.push([session.id, reason]),
    onDiscarded: (session) => discarded.push(session.id),
    random: (n) => Math.min(picks.shift() ?? 0, n - 1),
  });
  return { sessions, retired, discarded };
}

describe('SessionPool', () => {
  it('makes new sessions until the pool is full, then picks among the live ones at random', () => {
    const { sessions } = pool({ size: 2, maxUsage: 10, picks: [1, 0, 1] });
    expect([sessions.pick().id, sessions.pick().id]).toEqual(['session-1', 'session-2']);
    expect([sessions.pick().id, sessions.pick().id, sessions.pick().id]).toEqual(['session-2', 'session-1', 'session-2']);
  });

  it('retires a session with the request that reaches maxUsage, and drops it once its requests are answered', () => {
    const { sessions, retired, discarded } = pool({ size: 1, maxUsage: 2 });
    const first = sessions.pick();
    sessions.use(first);
    sessions.use(first);
    expect(retired).toEqual([['session-1', 'max_usage']]);
    expect(sessions.live('session-1')).toBeUndefined();
    // Still known to the two requests in flight; its cookies go with the last answer.
    expect(sessions.known('session-1')).toBe(first);
    sessions.done(first);
    expect(discarded).toEqual([]);
    sessions.done(first);
    expect(discarded).toEqual(['session-1']);
    expect(sessions.pick().id).toBe('session-2');
  });

  it('keeps pinned sessions apart: made with their id, never picked, never retired by usage', () => {
    const { sessions, retired } = pool({ size: 1, maxUsage: 1 });
    const me = sessions.pinned('me');
    for (let i = 0; i < 5; i++) sessions.use(me);
    expect(retired).toEqual([]);
    expect(sessions.pinned('me')).toBe(me);
    expect(sessions.pick().id).toBe('session-1');
    expect(sessions.sessions().map((session) => session.id).sort()).toEqual(['me', 'session-1']);
  });

  it('gives back what it recorded: ids, usage, pinned sessions, retired ids, and fresh ids after the old ones', () => {
    const { sessions } = pool({ size: 2, maxUsage: 3 });
    const a = sessions.pick();
    sessions.use(a);
    sessions.done(a);
    const b = sessions.pick();
    sessions.retire(b, 'blocked');
    sessions.use(sessions.pinned('me'));
    const record = JSON.parse(JSON.stringify(sessions.record())) as ReturnType<SessionPool['record']>;
    const { sessions: resumed } = pool({ size: 2, maxUsage: 3 });
    expect(resumed.restore(record).map((session) => [session.id, session.usage, session.pinned])).toEqual([
      ['session-1', 1, false],
      ['me', 1, true],
    ]);
    expect(resumed.retiredIds).toEqual(['session-2']);
    expect(resumed.pick().id).toBe('session-3');
  });
});
