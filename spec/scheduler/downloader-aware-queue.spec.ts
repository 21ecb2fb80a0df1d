import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { DownloaderAwarePriorityQueue } from '../../src/scheduler/downloader-aware-queue.js';

describe('DownloaderAwarePriorityQueue', () => {
  const host = (request: Request): string => new URL(request.url).hostname;

  it('pops from the slot with the fewest active downloads, ties to the smallest slot name', () => {
    const active: Record<string, number> = { a: 2, b: 0, c: 0 };
    const queue = new DownloaderAwarePriorityQueue({ order: 'fifo', slotKey: host, activeIn: (slot) => active[slot] ?? 0 });
    for (const url of ['http://a/1', 'http://c/1', 'http://b/1', 'http://b/2', 'http://a/2']) queue.push(new Request(url));
    expect(queue.size).toBe(5);
    expect(queue.pop()?.url).toBe('http://b/1');
    active['b'] = 3;
    expect(queue.pop()?.url).toBe('http://c/1');
    expect(queue.pop()?.url).toBe('http://a/1');
    expect(queue.pop()?.url).toBe('http://a/2');
    expect(queue.pop()?.url).toBe('http://b/2');
    expect(queue.pop()).toBeUndefined();
    expect(queue.size).toBe(0);
  });

  it('keeps priority order within a slot (LIFO by default)', () => {
    const queue = new DownloaderAwarePriorityQueue({ slotKey: host, activeIn: () => 0 });
    queue.push(new Request('http://a/low', { priority: -1 }));
    queue.push(new Request('http://a/1'));
    queue.push(new Request('http://a/2'));
    expect([queue.pop()?.url, queue.pop()?.url, queue.pop()?.url]).toEqual(['http://a/2', 'http://a/1', 'http://a/low']);
  });
});
