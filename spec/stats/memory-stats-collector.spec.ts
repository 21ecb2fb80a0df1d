import { describe, expect, it } from '@jest/globals';
import { LogBus, type LogEvent } from '../../src/log/index.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';

describe('MemoryStatsCollector', () => {
  it('sets, increments from 0, and keeps maxima and minima as Scrapy does', () => {
    const stats = new MemoryStatsCollector();
    stats.inc('a');
    stats.inc('a');
    stats.inc('b', 10);
    stats.set('c', 'x');
    stats.max('hi', 3);
    stats.max('hi', 1);
    stats.max('hi', 7);
    stats.min('lo', 3);
    stats.min('lo', 5);
    stats.min('lo', -1);
    expect(stats.get('a')).toBe(2);
    expect(stats.get('missing')).toBeUndefined();
    expect(stats.getAll()).toEqual({ a: 2, b: 10, c: 'x', hi: 7, lo: -1 });
  });

  it('returns a snapshot from getAll', () => {
    const stats = new MemoryStatsCollector();
    stats.inc('a');
    const snapshot = stats.getAll();
    stats.inc('a');
    expect(snapshot).toEqual({ a: 1 });
    stats.clear();
    expect(stats.getAll()).toEqual({});
  });

  it('logs the stats dump at close under seine.statscollectors', () => {
    const bus = new LogBus();
    const logs: LogEvent[] = [];
    bus.events$.subscribe((event) => logs.push(event));
    const stats = new MemoryStatsCollector({ logger: bus.getLogger('seine.statscollectors') });
    stats.set('finish_reason', 'finished');
    stats.inc('item_scraped_count', 2);
    stats.closeSpider();
    expect(logs.map(({ logger, level, message }) => ({ logger, level, message }))).toEqual([
      { logger: 'seine.statscollectors', level: 'INFO', message: "Dumping seine stats:\n{'finish_reason': 'finished', 'item_scraped_count': 2}" },
    ]);
  });

  it('dumps nothing with STATS_DUMP off', () => {
    const crawler = fakeCrawler({ STATS_DUMP: 'False' });
    const stats = MemoryStatsCollector.fromCrawler(crawler);
    stats.inc('x');
    stats.closeSpider();
    expect(crawler.logs).toEqual([]);
    const on = fakeCrawler();
    MemoryStatsCollector.fromCrawler(on).closeSpider();
    expect(on.logs.map((event) => [event.logger, event.message])).toEqual([['seine.statscollectors', 'Dumping seine stats:\n{}']]);
  });
});
