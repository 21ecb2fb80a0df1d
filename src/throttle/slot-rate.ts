import type { DownloadSlot } from './download-slot.js';
import type { SharedRate } from './shared-rate.js';

/** While a shared rate's reservation is on its way: ask again this soon (a round trip to Redis on loopback is < 1 ms). */
const RESERVE_POLL_MS = 5;

/**
 * Milliseconds until a slot's DOWNLOAD_SLOTS `rate` allows a start (≤ 0:
 * now). Alone, a bucket of one token in this process (`rateNext`). With a
 * shared store, the start must be reserved there first: the reply is
 * asked for here and awaited by no one — until it is in, the answer is
 * "ask again in a few ms", so the throttle's decision stays synchronous.
 */
export function rateLeft(slot: DownloadSlot, now: number, shared: SharedRate | undefined, clock: () => number, intervalMs = slot.rateIntervalMs): number {
  if (intervalMs <= 0) return 0;
  if (shared === undefined) return slot.rateNext - now;
  // A start reserved long ago and not taken (the slot filled up meanwhile) would now fall next to another
  // worker's: given up, and a fresh one asked for.
  if (slot.reservedAt !== undefined && now - slot.reservedAt > intervalMs) slot.reservedAt = undefined;
  if (slot.reservedAt !== undefined) return slot.reservedAt - now;
  if (!slot.reserving) {
    slot.reserving = true;
    shared.reserve(slot.key, intervalMs).then(
      (wait) => {
        slot.reserving = false;
        slot.reservedAt = clock() + Math.max(0, wait);
      },
      () => {
        // The store failed (the frontier reports its own connection): keep this worker's own rate meanwhile.
        slot.reserving = false;
        slot.reservedAt = Math.max(clock(), slot.rateNext);
      },
    );
  }
  return RESERVE_POLL_MS;
}

/** A request of the slot started: the next token is one interval away, and a reservation is used up. */
export function rateStarted(slot: DownloadSlot, now: number, intervalMs = slot.rateIntervalMs): void {
  if (intervalMs <= 0) return;
  // A start outside canStart (a slotted fetch that did not ask) still counts against the rate.
  slot.rateNext = Math.max(now, slot.reservedAt ?? now) + intervalMs;
  slot.reservedAt = undefined;
}
