import { describe, expect, it } from '@jest/globals';
import type { FrontierStatus } from '../../src/frontier/frontier-client.js';
import { formatFrontierReport, frontierReport } from '../../src/frontier/frontier-report.js';

const status = (meta: Record<string, string>, more: Partial<FrontierStatus> = {}): FrontierStatus => ({ meta, leases: 0, seen: 0, items: 0, workersAlive: [], stats: {}, ...more });
const report = (s: FrontierStatus) => frontierReport('tree', 'redis://127.0.0.1:6379/0', 'seine:{tree}:', s);

describe('frontierReport: the state of a shared crawl as `seine frontier … status` shows it', () => {
  it.each([
    ['not started', status({})],
    ['paused', status({ paused: '1' })],
    ['starting', status({ start_state: 'seeding', start_owner: 'a', queued: '3' }, { workersAlive: ['a'] })],
    ['running', status({ start_state: 'done', queued: '3' }, { workersAlive: ['a'] })],
    ['running', status({ start_state: 'done', queued: '0' }, { leases: 2, workersAlive: ['a'] })],
    ['waiting for workers', status({ start_state: 'done', queued: '5' })],
    ['waiting for workers', status({ start_state: 'seeding', start_owner: 'gone', start_count: '7' })],
    ['paused', status({ start_state: 'done', queued: '5', paused: '1' }, { workersAlive: ['a'] })],
    ['finished', status({ start_state: 'done', queued: '0', done: '12' })],
  ])('%s', (state, input) => {
    expect(report(input).state).toBe(state);
  });

  it('a start() whose worker died is interrupted, with how far it got; one whose worker lives is running on it', () => {
    const interrupted = report(status({ start_state: 'seeding', start_owner: 'gone', start_count: '7', queued: '2' }));
    expect(interrupted.start).toEqual({ state: 'interrupted', outputs: 7, owner: null });
    expect(formatFrontierReport(interrupted)).toMatch(/^ {2}Start: +interrupted after 7 outputs \(the next worker to start takes it over\)$/m);
    const running = report(status({ start_state: 'seeding', start_owner: 'a', start_count: '3' }, { workersAlive: ['a'] }));
    expect(running.start).toEqual({ state: 'running', outputs: 3, owner: 'a' });
    expect(formatFrontierReport(running)).toMatch(/^ {2}Start: +running on a \(3 outputs so far\)$/m);
  });

  it('counts: seen includes the Bloom filter\'s, items scraped come from the merged stats, Redis-kept items are shown when there are some', () => {
    const r = report(
      status({ start_state: 'done', queued: '4', done: '10', failed: '2', bloom_added: '5', items: '9', reclaimed: '1' }, {
        seen: 3,
        leases: 1,
        workersAlive: ['b'],
        stats: { a: { item_scraped_count: 6 }, b: { item_scraped_count: 3 } },
      }),
    );
    expect(r).toMatchObject({ queued: 4, leased: 1, done: 10, failed: 2, seen: 8, itemsScraped: 9, itemsInRedis: 9, reclaimed: 1, workersJoined: 2, statsOf: 2 });
    const text = formatFrontierReport(r);
    expect(text).toMatch(/^ {2}Done: +10 \(2 failed\)$/m);
    expect(text).toMatch(/^ {2}Items: +9 scraped, 9 kept in Redis \(REDIS_ITEMS\)$/m);
    expect(text).toMatch(/^ {2}Workers: +1 alive of 2 that joined: b$/m);
    expect(text).toContain("Stats of 2 workers, merged:\n{'item_scraped_count': 9}");
  });
});
