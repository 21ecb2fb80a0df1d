/**
 * What a `--workers N` crawl's processes say to each other over the IPC
 * channel of `child_process.fork`. Messages are batched: each side sends
 * one array per turn of its event loop, so a page's pushes, its
 * acknowledgement and the next lease travel together, and the per-message
 * cost of the channel is paid once per batch, not once per call.
 */
import type { FrontierCounts, LeasedRequest, PushEntry } from '../frontier/frontier-client.js';

/** Set in a worker's environment: its number (1…N). Never shown to users; the CLI reads it. */
export const WORKER_ENV = 'SEINE_WORKER_OF';

/** A call from a worker; `id` numbers the calls that wait for a reply. */
export type WorkerCall =
  | { readonly op: 'push'; readonly id: number; readonly lifo: boolean; readonly entries: readonly PushEntry[] }
  | { readonly op: 'lease'; readonly id: number; readonly count: number }
  | { readonly op: 'ack'; readonly id: number; readonly lease: string; readonly outcome: 'done' | 'failed'; readonly delay: number | null; readonly items: readonly string[] }
  | { readonly op: 'renew'; readonly id: number; readonly stats: string }
  | { readonly op: 'release'; readonly id: number; readonly leases: readonly string[] }
  | { readonly op: 'claim'; readonly id: number }
  | { readonly op: 'pause'; readonly id: number; readonly slot: string; readonly ms: number }
  | { readonly op: 'reserve'; readonly id: number; readonly slot: string; readonly intervalMs: number };

/** What the coordinator sends a worker. */
export type CoordinatorMessage =
  | { readonly op: 'reply'; readonly id: number; readonly value: unknown }
  /** New requests are queued: an idle worker asks for leases now rather than at its next poll. */
  | { readonly op: 'wake' }
  /** Ctrl-C at the coordinator: close gracefully (in-flight requests finish, their items are sent). */
  | { readonly op: 'stop' };

export interface LeaseReply {
  readonly counts: FrontierCounts;
  readonly leased: LeasedRequest[];
}

export function isBatch<T>(message: unknown): message is T[] {
  return Array.isArray(message);
}
