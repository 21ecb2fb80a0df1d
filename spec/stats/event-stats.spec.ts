import { describe, expect, it } from '@jest/globals';
import type { StatsCollector } from '../../src/contracts/crawler.js';
import type { CrawlEvent } from '../../src/contracts/events.js';
import { DropItem } from '../../src/contracts/control-flow.js';
import { Request } from '../../src/http/request.js';
import { Spider } from '../../src/contracts/spider.js';
import { applyEvent, errorClassName } from '../../src/stats/event-stats.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';

class MissingPrice extends DropItem {}

describe('applyEvent', () => {
  it("keeps Scrapy CoreStats' keys over a crawl's events", () => {
    const times = [new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 0)), new Date(Date.UTC(2024, 0, 2, 3, 4, 17, 250))];
    const clock = (): Date => times.shift()!;
    const request = new Request('http://a/');
    const response = {} as never;
    const events: CrawlEvent[] = [
      { type: 'engine_started' },
      { type: 'spider_opened', spider: new Spider() },
      { type: 'request_scheduled', request },
      { type: 'response_received', request, response },
      { type: 'item_scraped', item: { a: 1 }, response },
      { type: 'item_scraped', item: { a: 2 }, response },
      { type: 'item_dropped', item: { a: 3 }, response, error: new DropItem('no price') },
      { type: 'item_dropped', item: { a: 4 }, response, error: new MissingPrice('no price') },
      { type: 'item_dropped', item: { a: 5 }, response, error: new MissingPrice('no price') },
      { type: 'spider_error', error: new TypeError('x is undefined'), response },
      { type: 'spider_error', error: new RangeError('bad page'), response: null },
      { type: 'response_received', request, response },
      { type: 'spider_closed', reason: 'finished' },
      { type: 'engine_stopped' },
    ];
    const stats = events.reduce<StatsCollector>((collector, event) => applyEvent(collector, event, clock), new MemoryStatsCollector());
    expect(stats.getAll()).toEqual({
      start_time: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 0)),
      response_received_count: 2,
      item_scraped_count: 2,
      item_dropped_count: 3,
      'item_dropped_reasons_count/DropItem': 1,
      'item_dropped_reasons_count/MissingPrice': 2,
      'spider_exceptions/TypeError': 1,
      'spider_exceptions/RangeError': 1,
      elapsed_time_seconds: 12.25,
      finish_time: new Date(Date.UTC(2024, 0, 2, 3, 4, 17, 250)),
      finish_reason: 'finished',
    });
  });

  it('sets no elapsed time when the spider never opened', () => {
    const stats = applyEvent(new MemoryStatsCollector(), { type: 'spider_closed', reason: 'shutdown' }, () => new Date(0));
    expect(stats.getAll()).toEqual({ finish_time: new Date(0), finish_reason: 'shutdown' });
  });

  it('names errors by their class, as Python does, falling back to error.name', () => {
    expect(errorClassName(new MissingPrice('x'))).toBe('MissingPrice');
    const plain = Object.assign(Object.create(null) as Error, { name: 'Weird' });
    expect(errorClassName(plain)).toBe('Weird');
  });
});
