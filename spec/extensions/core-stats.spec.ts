import { describe, expect, it } from '@jest/globals';
import { CoreStats } from '../../src/extensions/core-stats.js';
import { Request } from '../../src/http/request.js';
import { Spider } from '../../src/contracts/spider.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';

describe('CoreStats', () => {
  it("records core stats from the crawler's events until spider_closed", () => {
    const crawler = fakeCrawler();
    CoreStats.fromCrawler(crawler);
    const response = {} as never;
    crawler.emit({ type: 'spider_opened', spider: new Spider() });
    crawler.emit({ type: 'response_received', request: new Request('http://a/'), response });
    crawler.emit({ type: 'item_scraped', item: {}, response });
    crawler.emit({ type: 'spider_closed', reason: 'finished' });
    crawler.emit({ type: 'item_scraped', item: {}, response });
    const all = crawler.stats.getAll();
    expect(Object.keys(all).sort()).toEqual([
      'elapsed_time_seconds',
      'finish_reason',
      'finish_time',
      'item_scraped_count',
      'response_received_count',
      'start_time',
    ]);
    expect(all['item_scraped_count']).toBe(1);
    expect(all['finish_reason']).toBe('finished');
    expect(all['start_time']).toBeInstanceOf(Date);
  });

  it('reads times from the clock it is given', () => {
    const stats = new MemoryStatsCollector();
    const times = [new Date(1_000), new Date(3_500)];
    const extension = new CoreStats({ stats, clock: () => times.shift()! });
    extension.handle({ type: 'spider_opened', spider: new Spider() });
    extension.handle({ type: 'spider_closed', reason: 'closespider_timeout' });
    expect(stats.getAll()).toEqual({
      start_time: new Date(1_000),
      finish_time: new Date(3_500),
      finish_reason: 'closespider_timeout',
      elapsed_time_seconds: 2.5,
    });
  });
});
