/**
 * The JOBDIR request queue (Scrapy's disk queues under a priority queue):
 * higher priority first, LIFO or FIFO within one priority, kept in
 * `<JOBDIR>/requests.queue/requests.jsonl`.
 *
 * The file is a journal, one JSON object per line: `{"id","priority",
 * "request"}` when a request is pushed and `{"pop": id}` when it is handed
 * to the engine. Each line is written with one synchronous write as it
 * happens, so a crash loses only the requests that were being downloaded
 * (popped, not yet finished), as with Scrapy's disk queues. Opening replays
 * the journal; opening and closing rewrite it with only the pending
 * requests, so it does not grow from run to run.
 *
 * Memory holds each pending request as its JSON line (parsed back into a
 * Request when it is popped), not as a Request with its callbacks.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Request } from '../http/request.js';
import type { Spider } from '../spider/spider.js';
import { JobdirError } from './jobdir-errors.js';
import { missingMethods, requestFromDict, requestToDict, type RequestDict } from './request-dict.js';
import type { QueueOrder, RequestQueue } from './request-queue.js';

export const QUEUE_FILE = 'requests.jsonl';

export interface DiskPriorityQueueOptions {
  /** The queue's folder: `<JOBDIR>/requests.queue`. Created when missing. */
  readonly dir: string;
  /** Order within one priority (SCHEDULER_DISK_QUEUE); default 'lifo', as Scrapy's PickleLifoDiskQueue. */
  readonly order?: QueueOrder;
  /** Callbacks are stored as, and looked up by, the names of this spider's methods. */
  readonly spider: Spider;
}

interface Entry {
  readonly priority: number;
  /** The request as JSON (a RequestDict). */
  readonly json: string;
}

export class DiskPriorityQueue implements RequestQueue {
  readonly kind = 'disk';
  readonly order: QueueOrder;
  /** How many requests the previous run left (0 for a new JOBDIR). */
  readonly restored: number;
  readonly #file: string;
  readonly #spider: Spider;
  /** Pending entries by id; insertion order is push order. */
  readonly #pending = new Map<number, Entry>();
  /** Ids per priority, in push order. */
  readonly #ids = new Map<number, number[]>();
  /** Priorities that hold requests, highest first (a crawl uses a handful). */
  #priorities: number[] = [];
  #nextId = 0;
  #fd: number | null;

  constructor(options: DiskPriorityQueueOptions) {
    this.order = options.order ?? 'lifo';
    this.#spider = options.spider;
    this.#file = join(options.dir, QUEUE_FILE);
    try {
      mkdirSync(options.dir, { recursive: true });
    } catch (error) {
      throw new JobdirError(`Cannot create the JOBDIR request queue folder ${options.dir}: ${(error as Error).message}`, { cause: error });
    }
    for (const entry of this.#replay()) this.#add(entry);
    this.restored = this.#pending.size;
    this.#compact();
    this.#fd = openSync(this.#file, 'a');
  }

  push(request: Request): void {
    // Serialize first: a request that cannot be stored throws before anything is written.
    const json = JSON.stringify(requestToDict(request, this.#spider));
    const id = this.#nextId;
    this.#write(`{"id":${id},"priority":${request.priority},"request":${json}}\n`);
    this.#add({ priority: request.priority, json });
  }

  pop(): Request | undefined {
    const priority = this.#priorities[0];
    if (priority === undefined) return undefined;
    const ids = this.#ids.get(priority)!;
    const id = (this.order === 'lifo' ? ids.pop() : ids.shift())!;
    if (ids.length === 0) {
      this.#ids.delete(priority);
      this.#priorities.shift();
    }
    const entry = this.#pending.get(id)!;
    this.#pending.delete(id);
    this.#write(`{"pop":${id}}\n`);
    return requestFromDict(JSON.parse(entry.json) as RequestDict, this.#spider);
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Rewrites the journal with only the pending requests and releases the file. */
  async close(): Promise<void> {
    this.closeSync();
  }

  closeSync(): void {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
    this.#compact();
  }

  #write(line: string): void {
    if (this.#fd === null) throw new JobdirError(`The JOBDIR request queue ${this.#file} is closed`);
    writeSync(this.#fd, line);
  }

  #add(entry: Entry): void {
    const id = this.#nextId++;
    this.#pending.set(id, entry);
    let ids = this.#ids.get(entry.priority);
    if (ids === undefined) {
      ids = [];
      this.#ids.set(entry.priority, ids);
      this.#priorities.push(entry.priority);
      this.#priorities.sort((a, b) => b - a);
    }
    ids.push(id);
  }

  /** The pending entries of the journal, in push order. */
  #replay(): Entry[] {
    if (!existsSync(this.#file)) return [];
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      throw new JobdirError(`Cannot read the JOBDIR request queue ${this.#file}: ${(error as Error).message}`, { cause: error });
    }
    const lines = text.split('\n');
    const pushed = new Map<number, Entry>();
    lines.forEach((line, index) => {
      if (line === '') return;
      let record: { id?: number; priority?: number; request?: RequestDict; pop?: number };
      try {
        record = JSON.parse(line) as typeof record;
      } catch (error) {
        // A crash in the middle of a write leaves a partial last line: that push or pop never happened.
        if (index >= lines.length - 2) return;
        throw new JobdirError(`The JOBDIR request queue ${this.#file} is damaged at line ${index + 1}: ${(error as Error).message}`, { cause: error });
      }
      if (record.pop !== undefined) pushed.delete(record.pop);
      else if (record.id !== undefined && record.request !== undefined) {
        const missing = missingMethods(record.request, this.#spider);
        if (missing.length > 0) {
          throw new JobdirError(
            `Method '${missing[0]}' not found in: ${this.#spider.toString()} (a request in ${this.#file} names it as its callback: restore the method, or start over with an empty JOBDIR)`,
          );
        }
        pushed.set(record.id, { priority: record.priority ?? record.request.priority, json: JSON.stringify(record.request) });
      }
    });
    return [...pushed.values()];
  }

  /** Writes the pending requests as a fresh journal (ids renumbered from 0), atomically. */
  #compact(): void {
    const pending = [...this.#pending];
    const newId = new Map<number, number>();
    this.#pending.clear();
    let lines = '';
    pending.forEach(([oldId, entry], id) => {
      newId.set(oldId, id);
      this.#pending.set(id, entry);
      lines += `{"id":${id},"priority":${entry.priority},"request":${entry.json}}\n`;
    });
    for (const [priority, ids] of this.#ids) this.#ids.set(priority, ids.map((id) => newId.get(id)!));
    this.#nextId = pending.length;
    const temporary = `${this.#file}.tmp`;
    writeFileSync(temporary, lines);
    renameSync(temporary, this.#file);
  }
}
