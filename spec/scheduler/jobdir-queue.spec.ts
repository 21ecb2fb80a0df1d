import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Request } from '../../src/http/request.js';
import type { Response } from '../../src/http/response.js';
import { fingerprint } from '../../src/http/fingerprint.js';
import { DiskPriorityQueue } from '../../src/scheduler/disk-priority-queue.js';
import { JobdirDupeFilter } from '../../src/scheduler/jobdir-dupe-filter.js';
import { JobdirError, RequestSerializationError } from '../../src/scheduler/jobdir-errors.js';
import { Spider } from '../../src/contracts/spider.js';

class PagesSpider extends Spider {
  static override name = 'pages';
  parsePage(response: Response): void {
    void response;
  }
}

const spider = new PagesSpider();
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-jobdir-queue-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const queueDir = (): string => join(dir, 'requests.queue');
const open = (order: 'lifo' | 'fifo' = 'lifo'): DiskPriorityQueue => new DiskPriorityQueue({ dir: queueDir(), order, spider });
const page = (n: number, priority = 0): Request => new Request(`http://e.com/${n}`, { callback: spider.parsePage, priority });

function drain(queue: DiskPriorityQueue): string[] {
  const urls: string[] = [];
  for (let r = queue.pop(); r !== undefined; r = queue.pop()) urls.push(r.url.slice('http://e.com/'.length));
  return urls;
}

describe('DiskPriorityQueue', () => {
  it('pops higher priorities first, LIFO within one priority by default', () => {
    const queue = open();
    for (const [n, p] of [[1, 0], [2, 0], [3, 5], [4, -1], [5, 5]] as const) queue.push(page(n, p));
    expect(queue.size).toBe(5);
    expect(drain(queue)).toEqual(['5', '3', '2', '1', '4']);
    queue.closeSync();
  });

  it('pops FIFO within one priority with order fifo', () => {
    const queue = open('fifo');
    for (const [n, p] of [[1, 0], [2, 0], [3, 5], [4, 5]] as const) queue.push(page(n, p));
    expect(drain(queue)).toEqual(['3', '4', '1', '2']);
    queue.closeSync();
  });

  it('keeps what was not acknowledged for the next run, in the same order, with the callback', () => {
    const first = open();
    for (let n = 1; n <= 5; n++) first.push(page(n));
    const done = first.pop()!;
    expect(done.url).toBe('http://e.com/5');
    first.acknowledge(done);
    expect(first.pop()!.url).toBe('http://e.com/4'); // handed out, never acknowledged
    first.closeSync();
    const second = open();
    expect(second.restored).toBe(4);
    expect(second.recovered).toBe(0); // a close puts what was handed out back in the queue
    const next = second.pop()!;
    expect(next.url).toBe('http://e.com/4');
    expect(next.callback).toBe(PagesSpider.prototype.parsePage);
    second.acknowledge(next);
    for (let r = second.pop(); r !== undefined; r = second.pop()) second.acknowledge(r);
    second.closeSync();
    expect(open().restored).toBe(0);
  });

  it('writes each push, pop and acknowledgement as it happens: a killed process loses nothing that was not acknowledged', () => {
    const crashed = open();
    for (let n = 1; n <= 4; n++) crashed.push(page(n));
    crashed.acknowledge(crashed.pop()!); // 4 is done
    crashed.pop(); // 3 is "in flight" when the process dies
    const journal = readFileSync(join(queueDir(), 'requests.jsonl'), 'utf8').trimEnd().split('\n');
    expect(journal.map((line) => JSON.parse(line) as Record<string, unknown>).slice(4)).toEqual([{ pop: 3 }, { done: 3 }, { pop: 2 }]);
    expect(JSON.parse(journal[0]!)).toMatchObject({ id: 0, priority: 0, request: { url: 'http://e.com/1', callback: 'parsePage' } });
    // A kill in the middle of a write leaves a torn last line: it is ignored.
    appendFileSync(join(queueDir(), 'requests.jsonl'), '{"id":4,"prior');
    const resumed = open();
    expect(resumed.restored).toBe(3);
    expect(resumed.recovered).toBe(1);
    expect(drain(resumed)).toEqual(['3', '2', '1']);
    resumed.closeSync();
  });

  it('records the start progress and the feed sizes, and keeps them through a compaction', () => {
    const queue = open();
    queue.push(page(1));
    queue.recordStart(1, { '/tmp/items.jsonl': 10 });
    const request = queue.pop()!;
    queue.acknowledge(request, { '/tmp/items.jsonl': 25 });
    queue.closeSync();
    const reopened = open();
    expect(reopened.progress).toEqual({ start: 1, feeds: { '/tmp/items.jsonl': 25 } });
    reopened.closeSync();
    expect(open().progress).toEqual({ start: 1, feeds: { '/tmp/items.jsonl': 25 } });
  });

  it('rewrites the journal on close with only the requests not done', () => {
    const queue = open();
    for (let n = 1; n <= 3; n++) queue.push(page(n));
    queue.acknowledge(queue.pop()!);
    queue.closeSync();
    const lines = readFileSync(join(queueDir(), 'requests.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { id: number; request: { url: string } }).request.url)).toEqual(['http://e.com/1', 'http://e.com/2']);
  });

  it('throws RequestSerializationError for a request it cannot store, and writes nothing', () => {
    const queue = open();
    expect(() => queue.push(new Request('http://e.com/x', { callback: () => undefined }))).toThrow(RequestSerializationError);
    expect(queue.size).toBe(0);
    expect(readFileSync(join(queueDir(), 'requests.jsonl'), 'utf8')).toBe('');
    queue.closeSync();
  });

  it('refuses to open a queue whose requests name a method the spider lacks', () => {
    const queue = open();
    queue.push(page(1));
    queue.closeSync();
    class Renamed extends Spider {
      static override name = 'pages';
    }
    expect(() => new DiskPriorityQueue({ dir: queueDir(), spider: new Renamed() })).toThrow(JobdirError);
    expect(() => new DiskPriorityQueue({ dir: queueDir(), spider: new Renamed() })).toThrow(
      `Method 'parsePage' not found in: <Renamed 'pages'> (a request in ${join(queueDir(), 'requests.jsonl')} names it as its callback: restore the method, or start over with an empty JOBDIR)`,
    );
  });

  it('refuses a journal damaged in the middle', () => {
    const queue = open();
    queue.push(page(1));
    queue.push(page(2));
    queue.closeSync();
    const file = join(queueDir(), 'requests.jsonl');
    writeFileSync(file, 'garbage\n' + readFileSync(file, 'utf8'));
    expect(() => open()).toThrow(/^The JOBDIR request queue .*requests\.jsonl is damaged at line 1: /);
  });
});

describe('JobdirDupeFilter', () => {
  it('appends one hex fingerprint per line on flush, and remembers them in the next run', () => {
    const filter = new JobdirDupeFilter(fingerprint, dir);
    expect(filter.seen(new Request('http://e.com/1'))).toBe(false);
    expect(filter.seen(new Request('http://e.com/1'))).toBe(true);
    expect(readFileSync(join(dir, 'requests.seen'), 'utf8')).toBe(''); // written once the scheduler has queued the request
    filter.flush();
    expect(filter.seen(new Request('http://e.com/2'))).toBe(false);
    filter.flush();
    const lines = readFileSync(join(dir, 'requests.seen'), 'utf8').split('\n');
    expect(lines).toEqual([fingerprint(new Request('http://e.com/1')), fingerprint(new Request('http://e.com/2')), '']);
    expect(lines[0]).toMatch(/^[0-9a-f]{40}$/);
    filter.close();
    const next = new JobdirDupeFilter(fingerprint, dir);
    expect(next.size).toBe(2);
    expect(next.seen(new Request('http://e.com/2'))).toBe(true);
    expect(next.seen(new Request('http://e.com/3'))).toBe(false);
    next.close();
    expect(readFileSync(join(dir, 'requests.seen'), 'utf8').split('\n')).toHaveLength(4);
  });

  it('creates the JOBDIR folder when it is missing', () => {
    const nested = join(dir, 'crawls', 'run-1');
    new JobdirDupeFilter(fingerprint, nested).close();
    expect(existsSync(join(nested, 'requests.seen'))).toBe(true);
  });
});
