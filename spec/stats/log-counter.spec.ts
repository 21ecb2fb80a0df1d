import { describe, expect, it } from '@jest/globals';
import { LogBus } from '../../src/log/index.js';
import { applyLogEvent, countLogEvents } from '../../src/stats/log-counter.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';

describe('log_count', () => {
  it('counts events by level at or above the minimum level (LOG_LEVEL)', () => {
    const stats = new MemoryStatsCollector();
    const time = new Date(0);
    for (const level of ['DEBUG', 'INFO', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const) {
      applyLogEvent(stats, { time, logger: 'x', level, message: 'm' }, 'INFO');
    }
    expect(stats.getAll()).toEqual({ 'log_count/INFO': 2, 'log_count/WARNING': 1, 'log_count/ERROR': 1, 'log_count/CRITICAL': 1 });
  });

  it("counts every event of a crawl's log bus until unsubscribed", () => {
    const bus = new LogBus();
    const stats = new MemoryStatsCollector();
    const subscription = countLogEvents(bus.events$, stats);
    bus.getLogger('seine.core.engine').debug('a');
    bus.getLogger('quotes').info('b');
    subscription.unsubscribe();
    bus.getLogger('quotes').info('c');
    expect(stats.getAll()).toEqual({ 'log_count/DEBUG': 1, 'log_count/INFO': 1 });
  });
});
