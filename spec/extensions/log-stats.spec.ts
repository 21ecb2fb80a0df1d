import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { NotConfigured } from '../../src/contracts/control-flow.js';
import { LogStats, logStatsLine, sampleLogStats } from '../../src/extensions/log-stats.js';
import { LogBus } from '../../src/log/index.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';

const testScheduler = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('logStatsLine', () => {
  it('reports totals and per-minute rates over one interval', () => {
    expect(logStatsLine({ pages: 0, items: 0 }, { pages: 0, items: 0 }, 60)).toBe(
      'Crawled 0 pages (at 0 pages/min), scraped 0 items (at 0 items/min)',
    );
    expect(logStatsLine({ pages: 12, items: 130 }, { pages: 2, items: 10 }, 60)).toBe(
      'Crawled 12 pages (at 10 pages/min), scraped 130 items (at 120 items/min)',
    );
    expect(logStatsLine({ pages: 5, items: 1 }, { pages: 2, items: 0 }, 30)).toBe(
      'Crawled 5 pages (at 6 pages/min), scraped 1 items (at 2 items/min)',
    );
  });

  it("truncates fractional rates as Python's %d does", () => {
    // (3 - 0) * (60 / 7) = 25.71…, and 1 * (60 / 7) = 8.57…
    expect(logStatsLine({ pages: 3, items: 1 }, { pages: 0, items: 0 }, 7)).toBe(
      'Crawled 3 pages (at 25 pages/min), scraped 1 items (at 8 items/min)',
    );
  });

  it('reads response_received_count and item_scraped_count, 0 when unset', () => {
    const stats = new MemoryStatsCollector();
    expect(sampleLogStats(stats)).toEqual({ pages: 0, items: 0 });
    stats.inc('response_received_count', 4);
    stats.inc('item_scraped_count', 9);
    expect(sampleLogStats(stats)).toEqual({ pages: 4, items: 9 });
  });
});

describe('LogStats', () => {
  it('logs when started and then every interval until stopped', () => {
    const scheduler = testScheduler();
    const lines: Array<[number, string, string]> = [];
    scheduler.run(() => {
      const bus = new LogBus({ now: () => new Date(scheduler.now()) });
      bus.events$.subscribe((event) => lines.push([event.time.getTime(), event.logger, event.message]));
      const stats = new MemoryStatsCollector();
      const extension = new LogStats({ stats, intervalSeconds: 60, logger: bus.getLogger('seine.extensions.logstats'), scheduler });
      extension.openSpider();
      extension.openSpider(); // a second start changes nothing
      scheduler.schedule(() => {
        stats.inc('response_received_count', 3);
        stats.inc('item_scraped_count', 30);
      }, 30_000);
      scheduler.schedule(() => stats.inc('response_received_count', 1), 130_000);
      scheduler.schedule(() => extension.closeSpider(), 150_000);
    });
    expect(lines).toEqual([
      [0, 'seine.extensions.logstats', 'Crawled 0 pages (at 0 pages/min), scraped 0 items (at 0 items/min)'],
      [60_000, 'seine.extensions.logstats', 'Crawled 3 pages (at 3 pages/min), scraped 30 items (at 30 items/min)'],
      [120_000, 'seine.extensions.logstats', 'Crawled 3 pages (at 0 pages/min), scraped 30 items (at 0 items/min)'],
    ]);
  });

  it('computes rates per minute from a shorter LOGSTATS_INTERVAL', () => {
    const scheduler = testScheduler();
    const crawler = fakeCrawler({ LOGSTATS_INTERVAL: '10' });
    scheduler.run(() => {
      const extension = LogStats.fromCrawler(crawler, { scheduler });
      expect(extension.intervalSeconds).toBe(10);
      extension.start();
      scheduler.schedule(() => crawler.stats.inc('response_received_count', 2), 5_000);
      scheduler.schedule(() => extension.stop(), 15_000);
    });
    expect(crawler.logs.map((event) => [event.logger, event.level, event.message])).toEqual([
      ['seine.extensions.logstats', 'INFO', 'Crawled 0 pages (at 0 pages/min), scraped 0 items (at 0 items/min)'],
      ['seine.extensions.logstats', 'INFO', 'Crawled 2 pages (at 12 pages/min), scraped 0 items (at 0 items/min)'],
    ]);
  });

  it('is off (NotConfigured) with LOGSTATS_INTERVAL=0, and rejects a negative interval', () => {
    expect(() => LogStats.fromCrawler(fakeCrawler({ LOGSTATS_INTERVAL: 0 }))).toThrow(NotConfigured);
    expect(() => LogStats.fromCrawler(fakeCrawler({ LOGSTATS_INTERVAL: -5 }))).toThrow(SettingsError);
    expect(() => LogStats.fromCrawler(fakeCrawler({ LOGSTATS_INTERVAL: -5 }))).toThrow(
      'Setting LOGSTATS_INTERVAL must be at least 0, got -5 (from -s LOGSTATS_INTERVAL=-5): it is the number of seconds between two LogStats lines; use 0 to turn them off',
    );
    expect(() => new LogStats({ stats: new MemoryStatsCollector(), intervalSeconds: 0 })).toThrow(
      'LogStats intervalSeconds must be a number > 0, got 0',
    );
  });

  it('uses LOGSTATS_INTERVAL=60 by default', () => {
    expect(LogStats.fromCrawler(fakeCrawler()).intervalSeconds).toBe(60);
  });
});
