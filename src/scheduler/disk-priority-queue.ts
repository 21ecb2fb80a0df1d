/**
 * The JOBDIR request queue (Scrapy's disk queues under a priority queue):
 * higher priority first, LIFO or FIFO within one priority, kept in
 * `<JOBDIR>/requests.queue/requests.jsonl`.
 *
 * The file is a journal, one JSON object per line, each written with one
 * synchronous write as it happens (a killed process loses no line but,
 * at worst, a torn last one):
 *
 * - `{"id","priority","fp","request"}`: a request was pushed;
 * - `{"pop": id}`: it was handed to the engine;
 * - `{"done": id, "feeds": {…}}`: its callback's output is recorded (the
 *   requests it yielded are pushed, its items written to the feeds, whose
 *   sizes follow);
 * - `{"start": n, "feeds": {…}}`: the first n outputs of the spider's
 *   start() are recorded.
 *
 * A request leaves the queue only with its `done` line: one that was popped
 * but not done when the process died is pending again on the next run
 * (`recovered`). Opening replays the journal; opening and closing rewrite
 * it with only the pending requests and the last progress record, so it
 * does not grow from run to run.
 *
 * Memory holds each pending request as its JSON line (parsed back into a
 * Request when it is popped), not as a Request with its callbacks.
 */
import { closeSync, existsSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { makePrivateDirSync, openPrivateFileSync, writePrivateFileSync } from '../private-files.js';
import { join } from 'node:path';
import type { Request } from '../http/request.js';
import type { Spider } from '../contracts/spider.js';
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
  /** The request fingerprint, kept with each queued request for the duplicate filter of a resumed run. */
  readonly fingerprint?: (request: Request) => string;
}

interface Entry {
  readonly priority: number;
  /** The request's fingerprint, so a resumed duplicate filter knows every queued request. */
  readonly fp: string | null;
  /** The request as JSON (a RequestDict). */
  readonly json: string;
}

/** What the last `done` or `start` record said: progress of the start, and the feeds' sizes. */
export interface JournalProgress {
  /** How many outputs of start() were recorded. */
  readonly start: number;
  /** Sizes of the append-mode feed files when the last record was written (absolute path → bytes). */
  readonly feeds: Readonly<Record<string, number>> | null;
}

export class DiskPriorityQueue implements RequestQueue {
  readonly kind = 'disk';
  readonly order: QueueOrder;
  /** How many requests the previous run left (0 for a new JOBDIR). */
  readonly restored: number;
  /** Of those, how many had been handed to the engine and not finished when the previous run stopped. */
  readonly recovered: number;
  /** The previous run's last progress record. */
  readonly progress: JournalProgress;
  readonly #file: string;
  readonly #spider: Spider;
  readonly #fingerprint: ((request: Request) => string) | null;
  /** Pending entries by id; insertion order is push order. */
  readonly #pending = new Map<number, Entry>();
  /** Entries handed to the engine and not yet done, by id. */
  readonly #inFlight = new Map<number, Entry>();
  readonly #idOf = new WeakMap<Request, number>();
  /** Ids per priority, in push order. */
  readonly #ids = new Map<number, number[]>();
  /** Priorities that hold requests, highest first (a crawl uses a handful). */
  #priorities: number[] = [];
  #nextId = 0;
  #fd: number | null;
  /** The progress record a compaction writes (start count and the last feed sizes). */
  #progressLine = '';
  #startDone = 0;
  #lastFeeds: Readonly<Record<string, number>> | null = null;

  constructor(options: DiskPriorityQueueOptions) {
    this.order = options.order ?? 'lifo';
    this.#spider = options.spider;
    this.#fingerprint = options.fingerprint ?? null;
    this.#file = join(options.dir, QUEUE_FILE);
    try {
      makePrivateDirSync(options.dir);
    } catch (error) {
      throw new JobdirError(`Cannot create the JOBDIR request queue folder ${options.dir}: ${(error as Error).message}`, { cause: error });
    }
    const replayed = this.#replay();
    for (const entry of replayed.pending) this.#add(entry);
    this.restored = this.#pending.size;
    this.recovered = replayed.recovered;
    this.progress = replayed.progress;
    this.#startDone = replayed.progress.start;
    this.#lastFeeds = replayed.progress.feeds;
    this.#progressLine = progressLine(replayed.progress);
    this.#compact();
    this.#fd = openPrivateFileSync(this.#file, 'a', { tighten: true });
  }

  push(request: Request): void {
    // Serialize first: a request that cannot be stored throws before anything is written.
    const json = JSON.stringify(requestToDict(request, this.#spider));
    const id = this.#nextId;
    const entry: Entry = { priority: request.priority, fp: request.dontFilter || this.#fingerprint === null ? null : this.#fingerprint(request), json };
    this.#write(entryLine(id, entry));
    this.#add(entry);
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
    this.#inFlight.set(id, entry);
    this.#write(`{"pop":${id}}\n`);
    const request = requestFromDict(JSON.parse(entry.json) as RequestDict, this.#spider);
    this.#idOf.set(request, id);
    return request;
  }

  /**
   * The request's output is recorded: it leaves the journal. `feeds` are the
   * feed files' sizes now, which a resumed run truncates them to.
   */
  acknowledge(request: Request, feeds: Readonly<Record<string, number>> | null = null): void {
    const id = this.#idOf.get(request);
    if (id === undefined || !this.#inFlight.delete(id)) return;
    // Most requests write no item: their line need not repeat the sizes (replay keeps the last ones written).
    const changed = feeds !== null && !sameSizes(feeds, this.#lastFeeds);
    this.#write(`{"done":${id}${changed ? `,"feeds":${JSON.stringify(feeds)}` : ''}}\n`);
    if (changed) {
      this.#lastFeeds = feeds;
      this.#progressLine = progressLine({ start: this.#startDone, feeds });
    }
  }

  /** The first `count` outputs of the spider's start() are recorded. */
  recordStart(count: number, feeds: Readonly<Record<string, number>> | null = null): void {
    this.#startDone = count;
    this.#progressLine = progressLine({ start: count, feeds: feeds ?? this.#lastFeeds });
    if (feeds !== null) this.#lastFeeds = feeds;
    this.#write(this.#progressLine);
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
    this.#index(id, entry.priority);
  }

  /** Files a pending id under its priority. */
  #index(id: number, priority: number): void {
    let ids = this.#ids.get(priority);
    if (ids === undefined) {
      ids = [];
      this.#ids.set(priority, ids);
      this.#priorities.push(priority);
      this.#priorities.sort((a, b) => b - a);
    }
    ids.push(id);
  }

  /** The pending entries of the journal in push order (those popped and not done among them), and the last progress record. */
  #replay(): { pending: Entry[]; recovered: number; progress: JournalProgress } {
    const empty = { pending: [], recovered: 0, progress: { start: 0, feeds: null } };
    if (!existsSync(this.#file)) return empty;
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      throw new JobdirError(`Cannot read the JOBDIR request queue ${this.#file}: ${(error as Error).message}`, { cause: error });
    }
    const lines = text.split('\n');
    const pushed = new Map<number, Entry>();
    const popped = new Set<number>();
    let start = 0;
    let feeds: Record<string, number> | null = null;
    lines.forEach((line, index) => {
      if (line === '') return;
      let record: { id?: number; priority?: number; fp?: string; request?: RequestDict; pop?: number; done?: number; start?: number; feeds?: Record<string, number> };
      try {
        record = JSON.parse(line) as typeof record;
      } catch (error) {
        // A process killed in the middle of a write leaves a partial last line: that record never happened.
        if (index >= lines.length - 2) return;
        throw new JobdirError(`The JOBDIR request queue ${this.#file} is damaged at line ${index + 1}: ${(error as Error).message}`, { cause: error });
      }
      if (record.feeds !== undefined) feeds = record.feeds;
      if (record.pop !== undefined) popped.add(record.pop);
      else if (record.done !== undefined) {
        pushed.delete(record.done);
        popped.delete(record.done);
      } else if (record.start !== undefined) start = record.start;
      else if (record.id !== undefined && record.request !== undefined) {
        const missing = missingMethods(record.request, this.#spider);
        if (missing.length > 0) {
          throw new JobdirError(
            `Method '${missing[0]}' not found in: ${this.#spider.toString()} (a request in ${this.#file} names it as its callback: restore the method, or start over with an empty JOBDIR)`,
          );
        }
        pushed.set(record.id, { priority: record.priority ?? record.request.priority, fp: record.fp ?? null, json: JSON.stringify(record.request) });
      }
    });
    let recovered = 0;
    for (const id of popped) if (pushed.has(id)) recovered++;
    return { pending: [...pushed.values()], recovered, progress: { start, feeds } };
  }

  /** The fingerprints of the queued requests (also those in flight), for the duplicate filter. */
  fingerprints(): string[] {
    const fps: string[] = [];
    for (const entry of this.#pending.values()) if (entry.fp !== null) fps.push(entry.fp);
    for (const entry of this.#inFlight.values()) if (entry.fp !== null) fps.push(entry.fp);
    return fps;
  }

  /**
   * Writes the pending requests (with those handed out and not done: the
   * next run crawls them again) and the progress record as a fresh journal,
   * ids renumbered from 0, atomically.
   */
  #compact(): void {
    for (const [id, entry] of this.#inFlight) {
      this.#pending.set(id, entry);
      this.#index(id, entry.priority);
    }
    this.#inFlight.clear();
    const pending = [...this.#pending].sort(([a], [b]) => a - b);
    const newId = new Map<number, number>();
    this.#pending.clear();
    let lines = this.#progressLine;
    pending.forEach(([oldId, entry], id) => {
      newId.set(oldId, id);
      this.#pending.set(id, entry);
      lines += entryLine(id, entry);
    });
    for (const [priority, ids] of this.#ids) this.#ids.set(priority, ids.map((id) => newId.get(id)!).sort((a, b) => a - b));
    this.#nextId = pending.length;
    const temporary = `${this.#file}.tmp`;
    writePrivateFileSync(temporary, lines);
    renameSync(temporary, this.#file);
  }
}

function sameSizes(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>> | null): boolean {
  if (b === null) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function entryLine(id: number, entry: Entry): string {
  return `{"id":${id},"priority":${entry.priority}${entry.fp === null ? '' : `,"fp":"${entry.fp}"`},"request":${entry.json}}\n`;
}

function progressLine(progress: JournalProgress): string {
  if (progress.start === 0 && progress.feeds === null) return '';
  return `{"start":${progress.start}${progress.feeds === null ? '' : `,"feeds":${JSON.stringify(progress.feeds)}`}}\n`;
}
