import { describe, expect, it } from '@jest/globals';
import { Request } from '../../src/http/request.js';
import { MemoryPriorityQueue } from '../../src/scheduler/memory-priority-queue.js';

const req = (path: string, priority = 0): Request => new Request(`http://example.com/${path}`, { priority });

function drain(queue: MemoryPriorityQueue): string[] {
  const out: string[] = [];
  for (let request = queue.pop(); request !== undefined; request = queue.pop()) out.push(request.url.slice('http://example.com/'.length));
  return out;
}

describe('MemoryPriorityQueue', () => {
  it('pops higher priorities first, last in first out within a priority by default', () => {
    const queue = new MemoryPriorityQueue();
    for (const [path, priority] of [['a', 0], ['b', 1], ['c', 0], ['d', -1], ['e', 1], ['f', 0]] as const) queue.push(req(path, priority));
    expect(queue.order).toBe('lifo');
    expect(queue.size).toBe(6);
    expect(drain(queue)).toEqual(['e', 'b', 'f', 'c', 'a', 'd']);
    expect(queue.size).toBe(0);
  });

  it('pops first in first out within a priority with order fifo', () => {
    const queue = new MemoryPriorityQueue({ order: 'fifo' });
    for (const [path, priority] of [['a', 0], ['b', 1], ['c', 0], ['d', -1], ['e', 1], ['f', 0]] as const) queue.push(req(path, priority));
    expect(drain(queue)).toEqual(['b', 'e', 'a', 'c', 'f', 'd']);
  });

  it('returns undefined when empty, and works again after emptying', () => {
    const queue = new MemoryPriorityQueue();
    expect(queue.pop()).toBeUndefined();
    queue.push(req('a', 5));
    expect(drain(queue)).toEqual(['a']);
    expect(queue.pop()).toBeUndefined();
    queue.push(req('b', 5));
    queue.push(req('c', -5));
    expect(drain(queue)).toEqual(['b', 'c']);
  });

  it('serves a higher priority pushed while a lower one is being popped', () => {
    const queue = new MemoryPriorityQueue({ order: 'fifo' });
    queue.push(req('low1', -1));
    queue.push(req('low2', -1));
    expect(queue.pop()?.url).toBe('http://example.com/low1');
    queue.push(req('high', 3));
    queue.push(req('mid', 0));
    expect(drain(queue)).toEqual(['high', 'mid', 'low2']);
  });

  it('keeps FIFO order across ring-buffer growth and wrap-around', () => {
    const queue = new MemoryPriorityQueue({ order: 'fifo' });
    const expected: string[] = [];
    for (let i = 0; i < 20; i++) queue.push(req(String(i)));
    for (let i = 0; i < 10; i++) expected.push(queue.pop()!.url.slice(19));
    for (let i = 20; i < 60; i++) queue.push(req(String(i)));
    expected.push(...drain(queue));
    expect(expected).toEqual(Array.from({ length: 60 }, (_, i) => String(i)));
  });

  it('orders like a stable sort by descending priority (fifo) or its per-priority reverse (lifo), for random input', () => {
    let seed = 42;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (const order of ['fifo', 'lifo'] as const) {
      const queue = new MemoryPriorityQueue({ order });
      const pushed: Array<{ path: string; priority: number }> = [];
      const popped: string[] = [];
      const reference: Array<{ path: string; priority: number }> = [];
      const expected: string[] = [];
      for (let i = 0; i < 2000; i++) {
        if (random() < 0.6) {
          const entry = { path: String(i), priority: Math.floor(random() * 7) - 3 };
          pushed.push(entry);
          reference.push(entry);
          queue.push(req(entry.path, entry.priority));
        } else {
          popped.push(queue.pop()?.url.slice(19) ?? '-');
          // The reference: the highest priority, and within it the oldest (fifo) or newest (lifo).
          let best = -1;
          reference.forEach((entry, index) => {
            const current = best === -1 ? undefined : reference[best]!;
            if (current === undefined || entry.priority > current.priority || (order === 'lifo' && entry.priority === current.priority)) best = index;
          });
          expected.push(best === -1 ? '-' : reference.splice(best, 1)[0]!.path);
        }
      }
      expect(popped).toEqual(expected);
      expect(queue.size).toBe(reference.length);
      expect(pushed.length).toBeGreaterThan(1000);
    }
  });

  it('lists the priorities that hold requests, highest first', () => {
    const queue = new MemoryPriorityQueue();
    queue.push(req('a', 0));
    queue.push(req('b', -2));
    queue.push(req('c', 7));
    expect(queue.priorities()).toEqual([7, 0, -2]);
    queue.pop();
    expect(queue.priorities()).toEqual([0, -2]);
  });
});

/**
 * A site as a tree: each page links to two children, three levels deep.
 * The scheduler pops a page, "crawls" it and pushes its children with the
 * priority DepthMiddleware gives them (priority -= depth × DEPTH_PRIORITY).
 */
function crawlOrder(order: 'fifo' | 'lifo', depthPriority: number): string[] {
  const queue = new MemoryPriorityQueue({ order });
  queue.push(new Request('http://example.com/r', { meta: { depth: 0 } }));
  const visited: string[] = [];
  for (let page = queue.pop(); page !== undefined; page = queue.pop()) {
    const path = page.url.slice('http://example.com/'.length);
    visited.push(path);
    const depth = (page.meta['depth'] as number) + 1;
    if (depth > 3) continue;
    for (const child of ['0', '1']) {
      queue.push(new Request(`http://example.com/${path}${child}`, { priority: -depth * depthPriority, meta: { depth } }));
    }
  }
  return visited;
}

describe('crawl order', () => {
  it('is depth-first with the defaults (LIFO, DEPTH_PRIORITY=0)', () => {
    expect(crawlOrder('lifo', 0)).toEqual(['r', 'r1', 'r11', 'r111', 'r110', 'r10', 'r101', 'r100', 'r0', 'r01', 'r011', 'r010', 'r00', 'r001', 'r000']);
  });

  it('is breadth-first with FIFO and DEPTH_PRIORITY=1', () => {
    expect(crawlOrder('fifo', 1)).toEqual(['r', 'r0', 'r1', 'r00', 'r01', 'r10', 'r11', 'r000', 'r001', 'r010', 'r011', 'r100', 'r101', 'r110', 'r111']);
  });
});
