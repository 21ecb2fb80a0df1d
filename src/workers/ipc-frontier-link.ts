import type { FrontierCounts, LeasedRequest, PushEntry } from '../frontier/frontier-client.js';
import type { FrontierLink } from '../frontier/frontier-link.js';
import type { SharedRate } from '../throttle/shared-rate.js';
import { isBatch, type CoordinatorMessage, type LeaseReply, type WorkerCall } from './worker-messages.js';

type Pending = { resolve: (value: never) => void; reject: (error: Error) => void };
type CallBody = WorkerCall extends infer C ? (C extends WorkerCall ? Omit<C, 'id'> : never) : never;

/**
 * A worker's side of the frontier under `--workers N`: every call is a
 * message to the coordinator (its parent process), answered by a reply.
 * Calls made in one turn of the event loop leave as one batch, in order.
 * It is also the shared rate of DOWNLOAD_SLOTS `rate` (the coordinator
 * keeps one schedule per slot).
 */
export class IpcFrontierLink implements FrontierLink, SharedRate {
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #outbox: WorkerCall[] = [];
  #flushTimer: ReturnType<typeof setImmediate> | null = null;
  #ended = false;
  readonly #wakeListeners: Array<() => void> = [];
  readonly #stopListeners: Array<() => void> = [];
  readonly #goneListeners: Array<() => void> = [];
  #quitting = false;

  constructor(readonly channel: Pick<NodeJS.Process, 'send' | 'on' | 'off' | 'disconnect' | 'connected'> = process) {
    channel.on('message', this.#onMessage);
    channel.on('disconnect', this.#onDisconnect);
  }

  get connected(): boolean {
    return !this.#ended && this.channel.connected === true;
  }

  get ended(): boolean {
    return this.#ended;
  }

  async connect(): Promise<void> {
    if (this.channel.send === undefined || !this.channel.connected) throw new Error('this process was not started by a coordinator (no IPC channel)');
  }

  push(lifo: boolean, entries: readonly PushEntry[]): Promise<number[]> {
    return this.#call({ op: 'push', lifo, entries });
  }

  async lease(_worker: string, count: number): Promise<{ counts: FrontierCounts; leased: LeasedRequest[] }> {
    return this.#call<LeaseReply>({ op: 'lease', count });
  }

  ack(_worker: string, id: string, outcome: 'done' | 'failed', slotDelayMs: number | null, items: readonly string[]): Promise<boolean> {
    return this.#call({ op: 'ack', lease: id, outcome, delay: slotDelayMs, items });
  }

  // Leases do not expire under a coordinator (it sees a worker die as its channel closing): a renewal carries the stats only.
  renew(_worker: string, _leaseMs: number, stats: string): Promise<string[]> {
    return this.#call({ op: 'renew', stats });
  }

  release(_worker: string, _leaving: boolean, ids: readonly string[]): Promise<number> {
    return this.#call({ op: 'release', leases: ids });
  }

  claimStart(): Promise<{ state: 'done' | 'busy' | 'mine'; count: number }> {
    return this.#call({ op: 'claim' });
  }

  async pending(): Promise<{ queued: number; leases: number }> {
    return { queued: 0, leases: 0 };
  }

  async recordStart(): Promise<void> {
    // The coordinator runs start(): a worker never records it.
  }

  async pauseSlot(slot: string, ms: number): Promise<void> {
    await this.#call({ op: 'pause', slot, ms });
  }

  reserve(slot: string, intervalMs: number): Promise<number> {
    return this.#call({ op: 'reserve', slot, intervalMs });
  }

  async leave(): Promise<void> {}

  /** Sends what is queued, then lets the channel go (the process can end). */
  async quit(): Promise<void> {
    if (this.#ended) return;
    this.#flush();
    this.#quitting = true;
    this.#ended = true;
    this.channel.off('message', this.#onMessage);
    // Lets the last batch leave before the channel closes: process.send is asynchronous.
    await new Promise<void>((resolve) => setTimeout(resolve, 20));
    if (this.channel.connected) this.channel.disconnect?.();
  }

  onWake(listener: () => void): void {
    this.#wakeListeners.push(listener);
  }

  /** Ctrl-C reached the coordinator: it asks this worker to close gracefully. */
  onStop(listener: () => void): void {
    this.#stopListeners.push(listener);
  }

  /** The coordinator went away without asking this worker to stop (it was killed, or forced out by a second Ctrl-C). */
  onGone(listener: () => void): void {
    this.#goneListeners.push(listener);
  }

  #call<T>(body: CallBody): Promise<T> {
    if (this.#ended) return Promise.reject(new Error('the link to the coordinator is closed'));
    const id = this.#nextId++;
    this.#outbox.push({ ...body, id } as WorkerCall);
    this.#flushTimer ??= setImmediate(() => this.#flush());
    return new Promise<T>((resolve, reject) => this.#pending.set(id, { resolve: resolve as (value: never) => void, reject }));
  }

  #flush(): void {
    if (this.#flushTimer !== null) clearImmediate(this.#flushTimer);
    this.#flushTimer = null;
    if (this.#outbox.length === 0 || this.channel.send === undefined || !this.channel.connected) return;
    const batch = this.#outbox;
    this.#outbox = [];
    this.channel.send(batch);
  }

  readonly #onMessage = (message: unknown): void => {
    if (!isBatch<CoordinatorMessage>(message)) return;
    for (const entry of message) {
      if (entry.op === 'reply') {
        const pending = this.#pending.get(entry.id);
        this.#pending.delete(entry.id);
        pending?.resolve(entry.value as never);
      } else if (entry.op === 'wake') {
        for (const listener of this.#wakeListeners) listener();
      } else if (entry.op === 'stop') {
        for (const listener of this.#stopListeners) listener();
      }
    }
  };

  readonly #onDisconnect = (): void => {
    this.#ended = true;
    const error = new Error('the coordinator has gone');
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    if (!this.#quitting) for (const listener of this.#goneListeners) listener();
  };
}
