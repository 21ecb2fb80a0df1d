import type { FrontierCounts, LeasedRequest, PushEntry } from './frontier-client.js';

/**
 * What a worker's scheduler (src/scheduler/redis-scheduler.ts) asks of the
 * shared frontier: the Redis client is one implementation, the IPC link to
 * a local coordinator (`--workers N`, src/workers/) the other. The calls
 * are the frontier's operations, in the order the worker makes them: a
 * request's pushes reach the frontier before its acknowledgement.
 */
export interface FrontierLink {
  /** Reaches the frontier; a throw (within `timeoutMs`) fails the crawl's open. */
  connect(timeoutMs: number): Promise<void>;
  /** True while calls can be answered (Redis: the connection is ready). */
  readonly connected: boolean;
  /** True once the link was closed on purpose: a call failing then is not an error worth a line. */
  readonly ended: boolean;
  push(lifo: boolean, entries: readonly PushEntry[]): Promise<number[]>;
  lease(worker: string, count: number, leaseMs: number, slotConcurrency: number, delayMs: number, delayFactor: number): Promise<{ counts: FrontierCounts; leased: LeasedRequest[] }>;
  /** True when the lease was still this worker's. An empty `id`: items of a request only this worker had (not leased). */
  ack(worker: string, id: string, outcome: 'done' | 'failed', slotDelayMs: number | null, items: readonly string[]): Promise<boolean>;
  /** Extends this worker's leases and stores its stats snapshot; resolves with the ids no longer its. */
  renew(worker: string, leaseMs: number, stats: string, ids: readonly string[]): Promise<string[]>;
  release(worker: string, leaving: boolean, ids: readonly string[]): Promise<number>;
  claimStart(worker: string, leaseMs: number): Promise<{ state: 'done' | 'busy' | 'mine'; count: number }>;
  pending(): Promise<{ queued: number; leases: number }>;
  recordStart(worker: string, count: number, done: boolean): Promise<void>;
  pauseSlot(slot: string, ms: number): Promise<void>;
  /** This worker leaves the crawl's list of workers (its last stats stay). */
  leave(worker: string): Promise<void>;
  /** Waits for what was sent, then closes. */
  quit(): Promise<void>;
  /** Calls `listener` when the frontier says new requests are there (a coordinator can; Redis is polled). */
  onWake?(listener: () => void): void;
}
