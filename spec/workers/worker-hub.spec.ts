/**
 * The coordinator's side of `--workers N` without processes
 * (src/workers/worker-hub.ts, slot-schedule.ts): what it answers a worker's
 * push, lease and acknowledgement, how it keeps a slot's concurrency and
 * delay over all workers, and what it does when a worker dies.
 */
import { describe, expect, it } from '@jest/globals';
import { fakeCrawler, TestSpider } from '../helpers/fake-crawler.js';
import { Request } from '../../src/http/request.js';
import { fingerprint } from '../../src/http/fingerprint.js';
import { requestToDict } from '../../src/scheduler/request-dict.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { FingerprintDupeFilter } from '../../src/scheduler/dupe-filter.js';
import { SlotSchedule } from '../../src/workers/slot-schedule.js';
import { WorkerHub, type WorkerProcesses } from '../../src/workers/worker-hub.js';
import type { CoordinatorMessage, LeaseReply } from '../../src/workers/worker-messages.js';
import type { PushEntry } from '../../src/frontier/frontier-client.js';

class Processes implements WorkerProcesses {
  alive = 2;
  readonly sent: Array<[number, CoordinatorMessage]> = [];
  start(): void {}
  send(worker: number, message: CoordinatorMessage): void {
    this.sent.push([worker, message]);
  }
  stopAll(): void {}
  ended(): Promise<void> {
    return Promise.resolve();
  }
}

function setup(concurrency = 2) {
  const spider = new TestSpider();
  const crawler = fakeCrawler({}, spider);
  const inner = new Scheduler({ dupeFilter: new FingerprintDupeFilter(fingerprint), stats: crawler.stats });
  const processes = new Processes();
  const items: unknown[] = [];
  const hub = new WorkerHub(crawler, inner, { slotKey: (r) => new URL(r.url).hostname, limitsOf: () => ({ concurrency, delayMs: 0, randomizeDelay: false }) }, processes);
  hub.attachFeeds((item) => items.push(item));
  const entry = (url: string): PushEntry => {
    const request = new Request(url);
    return { fingerprint: fingerprint(request), slot: new URL(url).hostname, priority: 0, json: JSON.stringify(requestToDict(request, spider)), dontFilter: false, bloomBits: '' };
  };
  const push = (worker: number, ...urls: string[]): number[] => hub.handle(worker, { op: 'push', id: 1, lifo: false, entries: urls.map(entry) }) as number[];
  const lease = (worker: number, count: number): LeaseReply => hub.handle(worker, { op: 'lease', id: 1, count }) as LeaseReply;
  return { hub, crawler, processes, items, push, lease };
}

describe('WorkerHub', () => {
  it('queues a pushed request once, whichever worker pushes it again', () => {
    const { push } = setup();
    expect(push(1, 'http://a.test/1', 'http://a.test/2')).toEqual([1, 1]);
    expect(push(2, 'http://a.test/1', 'http://a.test/3')).toEqual([0, 1]);
  });

  it("leases at most a slot's concurrency over all workers, and frees it on acknowledgement, writing the items", () => {
    const { hub, push, lease, items } = setup(2);
    push(1, 'http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://b.test/1');
    const first = lease(1, 10);
    const urls = (reply: LeaseReply): string[] => reply.leased.map((l) => (JSON.parse(l.json) as { url: string }).url);
    // a.test's 2 at once (whichever the queue gives first), b.test's one; the third of a.test waits.
    expect(urls(first).filter((url) => url.startsWith('http://a.test/'))).toHaveLength(2);
    expect(urls(first)).toContain('http://b.test/1');
    expect(lease(2, 10).leased).toEqual([]);
    expect(hub.hasPending()).toBe(true);
    const aLease = first.leased.find((l) => l.json.includes('a.test/'))!;
    expect(hub.handle(1, { op: 'ack', id: 2, lease: aLease.id, outcome: 'done', delay: null, items: ['{"n":1}'] })).toBe(true);
    expect(items).toEqual([{ n: 1 }]);
    const third = ['http://a.test/1', 'http://a.test/2', 'http://a.test/3'].filter((url) => !urls(first).includes(url));
    expect(urls(lease(2, 10))).toEqual(third);
  });

  it('wakes the workers that came back short when new requests arrive', () => {
    const { push, lease, processes } = setup();
    expect(lease(2, 5).leased).toEqual([]);
    push(1, 'http://a.test/1');
    expect(processes.sent).toEqual([[2, { op: 'wake' }]]);
  });

  it("puts a dead worker's leases back in the queue for the others, in one ERROR line", () => {
    const { hub, push, lease, crawler } = setup(4);
    push(1, 'http://a.test/1', 'http://a.test/2');
    expect(lease(1, 10).leased).toHaveLength(2);
    hub.workerGone(1, '(pid 7) was killed (SIGKILL)', false);
    expect(crawler.textLines('seine.workers')).toEqual(['ERROR [seine.workers] Worker 1 (pid 7) was killed (SIGKILL); its 2 unfinished requests go back to the queue']);
    expect(lease(2, 10).leased).toHaveLength(2);
    expect(crawler.stats.get('workers/failed')).toBe(1);
    expect(crawler.closed).toEqual([]);
  });

  it('is pending until start() has ended and the last lease is acknowledged', () => {
    const { hub, push, lease } = setup();
    expect(hub.hasPending()).toBe(true);
    hub.finishStart();
    expect(hub.hasPending()).toBe(false);
    push(1, 'http://a.test/1');
    const [only] = lease(1, 1).leased;
    expect(hub.hasPending()).toBe(true);
    hub.handle(1, { op: 'ack', id: 3, lease: only!.id, outcome: 'done', delay: null, items: [] });
    expect(hub.hasPending()).toBe(false);
  });
});

describe('SlotSchedule', () => {
  it('spaces the starts of a slot with a delay over every lease, and holds none more than one delay ahead', () => {
    const slot = new SlotSchedule({ concurrency: 8, delayMs: 100, randomizeDelay: false });
    expect(slot.startFor(1000)).toBe(1000);
    slot.take(1000, Math.random);
    expect(slot.startFor(1000)).toBe(1100);
    slot.take(1100, Math.random);
    expect(slot.startFor(1000)).toBeNull();
    expect(slot.startFor(1100)).toBe(1200);
  });

  it('reserves the starts of a rate one interval apart (a bucket of one token)', () => {
    const slot = new SlotSchedule({ concurrency: 8, delayMs: 0, randomizeDelay: false });
    expect([slot.reserve(1000, 250), slot.reserve(1000, 250), slot.reserve(1100, 250)]).toEqual([0, 250, 400]);
  });

  it('leases nothing while the slot is paused (a Retry-After)', () => {
    const slot = new SlotSchedule({ concurrency: 8, delayMs: 0, randomizeDelay: false });
    slot.pausedUntil = 5000;
    expect(slot.startFor(4000)).toBeNull();
    expect(slot.startFor(5000)).toBe(5000);
  });
});
