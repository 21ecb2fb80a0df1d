import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { LogBus, type LogEvent } from '../../src/log/index.js';
import { FingerprintDupeFilter, type DupeFilter } from '../../src/scheduler/dupe-filter.js';
import { MemoryPriorityQueue } from '../../src/scheduler/memory-priority-queue.js';
import type { RequestQueue } from '../../src/scheduler/request-queue.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { MemoryStatsCollector } from '../../src/stats/memory-stats-collector.js';
import { DownloadSlots } from '../../src/throttle/download-slots.js';
import { fakeCrawler } from '../helpers/fake-crawler.js';

const byUrl = (request: Request): string => `${request.method} ${request.url}`;

function setup(options: { debug?: boolean; queue?: RequestQueue } = {}) {
  const bus = new LogBus();
  const logs: LogEvent[] = [];
  bus.events$.subscribe((event) => logs.push(event));
  const stats = new MemoryStatsCollector();
  const scheduler = new Scheduler({
    dupeFilter: new FingerprintDupeFilter(byUrl),
    stats,
    logger: bus.getLogger('seine.dupefilters'),
    ...options,
  });
  return { scheduler, stats, logs };
}

function drain(scheduler: Scheduler): string[] {
  const out: string[] = [];
  for (let request = scheduler.next(); request !== undefined; request = scheduler.next()) out.push(request.url);
  return out;
}

describe('Scheduler', () => {
  it('hands requests back by priority and counts scheduler/enqueued and scheduler/dequeued', () => {
    const { scheduler, stats } = setup();
    expect(scheduler.hasPending()).toBe(false);
    expect(scheduler.enqueue(new Request('http://a/1'))).toBe(true);
    expect(scheduler.enqueue(new Request('http://a/2', { priority: 5 }))).toBe(true);
    expect(scheduler.enqueue(new Request('http://a/3'))).toBe(true);
    expect(scheduler.hasPending()).toBe(true);
    expect(scheduler.size).toBe(3);
    expect(stats.getAll()).toEqual({ 'scheduler/enqueued': 3, 'scheduler/enqueued/memory': 3 });
    expect(scheduler.next()?.url).toBe('http://a/2');
    expect(drain(scheduler)).toEqual(['http://a/3', 'http://a/1']);
    expect(scheduler.next()).toBeUndefined();
    expect(scheduler.hasPending()).toBe(false);
    expect(stats.getAll()).toEqual({
      'scheduler/enqueued': 3,
      'scheduler/enqueued/memory': 3,
      'scheduler/dequeued': 3,
      'scheduler/dequeued/memory': 3,
    });
  });

  it('filters duplicates, logs the first one only with Scrapy\'s message and counts every one', () => {
    const { scheduler, stats, logs } = setup();
    expect(scheduler.enqueue(new Request('http://a/1'))).toBe(true);
    expect(scheduler.enqueue(new Request('http://a/1'))).toBe(false);
    expect(scheduler.enqueue(new Request('http://a/2'))).toBe(true);
    expect(scheduler.enqueue(new Request('http://a/2'))).toBe(false);
    expect(scheduler.enqueue(new Request('http://a/1', { method: 'POST' }))).toBe(true);
    expect(logs.map(({ logger, level, message }) => ({ logger, level, message }))).toEqual([
      {
        logger: 'seine.dupefilters',
        level: 'DEBUG',
        message:
          'Filtered duplicate request: <GET http://a/1> - no more duplicates will be shown (see DUPEFILTER_DEBUG to show all duplicates)',
      },
    ]);
    expect(stats.get('dupefilter/filtered')).toBe(2);
    expect(stats.get('scheduler/enqueued')).toBe(3);
    expect(scheduler.size).toBe(3);
  });

  it('logs every duplicate with its referer when debug (DUPEFILTER_DEBUG) is on', () => {
    const { scheduler, logs } = setup({ debug: true });
    scheduler.enqueue(new Request('http://a/1'));
    scheduler.enqueue(new Request('http://a/1', { headers: { Referer: 'http://a/' } }));
    scheduler.enqueue(new Request('http://a/1'));
    expect(logs.map((event) => event.message)).toEqual([
      'Filtered duplicate request: <GET http://a/1> (referer: http://a/)',
      'Filtered duplicate request: <GET http://a/1> (referer: None)',
    ]);
  });

  it('lets dontFilter requests through without recording them', () => {
    const { scheduler, stats } = setup();
    expect(scheduler.enqueue(new Request('http://a/1', { dontFilter: true }))).toBe(true);
    expect(scheduler.enqueue(new Request('http://a/1', { dontFilter: true }))).toBe(true);
    expect(scheduler.enqueue(new Request('http://a/1'))).toBe(true);
    expect(scheduler.enqueue(new Request('http://a/1'))).toBe(false);
    expect(stats.get('dupefilter/filtered')).toBe(1);
  });

  it('filters nothing without a duplicate filter, and counts nothing without stats', () => {
    const scheduler = new Scheduler();
    expect(scheduler.enqueue(new Request('http://a/1'))).toBe(true);
    expect(scheduler.enqueue(new Request('http://a/1'))).toBe(true);
    expect(scheduler.queue).toBeInstanceOf(MemoryPriorityQueue);
    expect(drain(scheduler)).toEqual(['http://a/1', 'http://a/1']);
  });

  it('names the stats after the queue kind, for a disk or shared queue', () => {
    const stored: Request[] = [];
    const queue: RequestQueue = {
      kind: 'redis',
      push: (request) => void stored.push(request),
      pop: () => stored.shift(),
      get size() {
        return stored.length;
      },
    };
    const { scheduler, stats } = setup({ queue });
    scheduler.enqueue(new Request('http://a/1'));
    scheduler.next();
    expect(stats.getAll()).toEqual({
      'scheduler/enqueued': 1,
      'scheduler/enqueued/redis': 1,
      'scheduler/dequeued': 1,
      'scheduler/dequeued/redis': 1,
    });
  });

  it('closes the queue and then the duplicate filter with the reason', async () => {
    const calls: string[] = [];
    const queue = Object.assign(new MemoryPriorityQueue(), { close: async () => void calls.push('queue') });
    const dupeFilter: DupeFilter = { seen: () => false, close: (reason) => void calls.push(`filter ${reason}`) };
    await new Scheduler({ queue, dupeFilter }).close('finished');
    expect(calls).toEqual(['queue', 'filter finished']);
  });
});

describe('Scheduler.fromCrawler', () => {
  const crawlTree = (scheduler: Scheduler): string[] => {
    scheduler.enqueue(new Request('http://a/1'));
    scheduler.enqueue(new Request('http://a/2'));
    scheduler.enqueue(new Request('http://a/3'));
    return drain(scheduler);
  };

  it('is LIFO with the defaults, counts into the crawler stats and logs under seine.dupefilters', () => {
    const crawler = fakeCrawler();
    const scheduler = Scheduler.fromCrawler(crawler, { fingerprint: byUrl });
    expect(crawlTree(scheduler)).toEqual(['http://a/3', 'http://a/2', 'http://a/1']);
    scheduler.enqueue(new Request('http://a/1'));
    expect(crawler.stats.get('scheduler/enqueued/memory')).toBe(3);
    expect(crawler.stats.get('dupefilter/filtered')).toBe(1);
    expect(crawler.logs.map((event) => event.logger)).toEqual(['seine.dupefilters']);
  });

  it.each(['FifoMemoryQueue', 'scrapy.squeues.FifoMemoryQueue', 'fifo'])('is FIFO with SCHEDULER_MEMORY_QUEUE=%s', (name) => {
    const crawler = fakeCrawler({ SCHEDULER_MEMORY_QUEUE: name });
    expect(crawlTree(Scheduler.fromCrawler(crawler, { fingerprint: byUrl }))).toEqual(['http://a/1', 'http://a/2', 'http://a/3']);
  });

  it('logs every duplicate with DUPEFILTER_DEBUG', () => {
    const crawler = fakeCrawler({ DUPEFILTER_DEBUG: 'True' });
    const scheduler = Scheduler.fromCrawler(crawler, { fingerprint: byUrl });
    for (let i = 0; i < 3; i++) scheduler.enqueue(new Request('http://a/1'));
    expect(crawler.logs.map((event) => event.message)).toEqual([
      'Filtered duplicate request: <GET http://a/1> (referer: None)',
      'Filtered duplicate request: <GET http://a/1> (referer: None)',
    ]);
  });

  it('rejects an unknown SCHEDULER_MEMORY_QUEUE, saying what to use', () => {
    const crawler = fakeCrawler({ SCHEDULER_MEMORY_QUEUE: 'scrapy.squeues.PickleLifoDiskQueue' });
    expect(() => Scheduler.fromCrawler(crawler, { fingerprint: byUrl })).toThrow(SettingsError);
    expect(() => Scheduler.fromCrawler(crawler, { fingerprint: byUrl })).toThrow(
      'Setting SCHEDULER_MEMORY_QUEUE is "scrapy.squeues.PickleLifoDiskQueue" (from -s SCHEDULER_MEMORY_QUEUE=scrapy.squeues.PickleLifoDiskQueue), ' +
        "which seine does not know: use 'LifoMemoryQueue' (depth-first, the default) or 'FifoMemoryQueue' (breadth-first with DEPTH_PRIORITY=1); " +
        "'lifo' and 'fifo' work too (the queue used with JOBDIR is SCHEDULER_DISK_QUEUE)",
    );
  });

  it('rejects an unknown SCHEDULER_PRIORITY_QUEUE', () => {
    const crawler = fakeCrawler({ SCHEDULER_PRIORITY_QUEUE: 'RoundRobin' });
    expect(() => Scheduler.fromCrawler(crawler, { fingerprint: byUrl })).toThrow(
      'Setting SCHEDULER_PRIORITY_QUEUE is "RoundRobin" (from -s SCHEDULER_PRIORITY_QUEUE=RoundRobin), which seine does not know: ' +
        "use 'ScrapyPriorityQueue' (the default) or 'DownloaderAwarePriorityQueue' (spreads a multi-domain crawl over domains)",
    );
  });

  it('spreads requests over download slots with DownloaderAwarePriorityQueue', () => {
    const crawler = fakeCrawler({ SCHEDULER_PRIORITY_QUEUE: 'scrapy.pqueues.DownloaderAwarePriorityQueue' });
    const slots = new DownloadSlots();
    const scheduler = Scheduler.fromCrawler(crawler, { fingerprint: byUrl, slots });
    for (const url of ['http://a/1', 'http://a/2', 'http://b/1', 'http://b/2']) scheduler.enqueue(new Request(url));
    const first = scheduler.next()!;
    expect(first.url).toBe('http://a/2');
    slots.started(first, 0);
    expect(scheduler.next()?.url).toBe('http://b/2');
  });

  it('needs the slots for DownloaderAwarePriorityQueue, and refuses it with CONCURRENT_REQUESTS_PER_IP', () => {
    const aware = fakeCrawler({ SCHEDULER_PRIORITY_QUEUE: 'DownloaderAwarePriorityQueue' });
    expect(() => Scheduler.fromCrawler(aware, { fingerprint: byUrl })).toThrow(
      'Scheduler.fromCrawler: SCHEDULER_PRIORITY_QUEUE = DownloaderAwarePriorityQueue needs the download slots (dependencies.slots)',
    );
    const perIp = fakeCrawler({ SCHEDULER_PRIORITY_QUEUE: 'DownloaderAwarePriorityQueue', CONCURRENT_REQUESTS_PER_IP: 2 });
    expect(() => Scheduler.fromCrawler(perIp, { fingerprint: byUrl, slots: new DownloadSlots() })).toThrow(
      'Setting SCHEDULER_PRIORITY_QUEUE is "DownloaderAwarePriorityQueue", which does not support CONCURRENT_REQUESTS_PER_IP; ' +
        "CONCURRENT_REQUESTS_PER_IP is 2 (from -s CONCURRENT_REQUESTS_PER_IP=2): set CONCURRENT_REQUESTS_PER_IP to 0 or use 'ScrapyPriorityQueue'",
    );
  });
});
