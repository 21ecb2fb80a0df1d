/**
 * The process-wide part of the HeapSizing extension (heap-sizing.ts): V8
 * flags that keep the heap near its live size, watched every 5 ms.
 * bin/seine.js applies seine's defaults before it loads anything, because
 * V8 grows its young generation to 32 MB while modules load and never
 * gives that back; a crawl then applies its own settings.
 *
 * Node takes V8's size limits only on its command line, so this uses the
 * two flags V8 reads while running: `--heap-growing-percent` (how far the
 * old generation grows past the live heap before a full collection; V8
 * alone allows 100–300 %) and `--semi-space-growth-factor`, 1 once the
 * young generation has reached its target and 2 (V8's value) below it.
 * Every new Worker (the Watchdog's, for one) resets the growth factor to 2,
 * hence the flags are set again every 100 ms. Only node:v8 and the
 * default settings are imported: this runs before the CLI.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { DEFAULT_SETTINGS } from '../settings/default-settings.js';


export interface HeapTargets {
  /** HEAP_GROWTH_PERCENT; 0: V8's choice. */
  readonly growthPercent: number;
  /** HEAP_YOUNG_GENERATION_MB in bytes; 0: V8's choice. */
  readonly youngGenerationBytes: number;
}

/**
 * What bin/seine.js applies before the CLI loads: HEAP_GROWTH_PERCENT at its
 * default, and the young generation kept at the size V8 starts it at (1 MB)
 * while the CLI's modules load and the spider compiles. Those are long
 * synchronous stretches in which the 5 ms look cannot run: with the crawl's
 * target in force from the start, the young generation doubled past it there
 * in half the runs and stayed so for the whole crawl (+4 MB of peak RSS at a
 * target of 4 MB). The crawl's HeapSizing lets it grow to
 * HEAP_YOUNG_GENERATION_MB when the engine starts, a stretch it can watch.
 */
export const STARTUP_HEAP_TARGETS: HeapTargets = {
  growthPercent: DEFAULT_SETTINGS.HEAP_GROWTH_PERCENT,
  youngGenerationBytes: 1,
};

/**
 * How often the young generation's size is read (~1 µs): often enough that
 * it seldom doubles twice between two looks, since it grows only at a
 * scavenge. Setting a flag costs ~7 µs, so the flags are set when what they
 * should be changes and again every 100 ms; the growth factor of a full
 * young generation on every look, because a Worker may have reset it.
 */
const CHECK_EVERY_MS = 5;
const REASSERT_EVERY_MS = 100;

/** V8's own values. */
const V8_GROWTH_PERCENT = 0;
const V8_SEMI_SPACE_GROWTH = 2;

let current: HeapTargets | undefined;
let timer: ReturnType<typeof setInterval> | undefined;
let applied: string | undefined;
let appliedAt = 0;

export function youngGenerationSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

function apply(targets: HeapTargets): void {
  const growth = targets.growthPercent > 0 ? targets.growthPercent : V8_GROWTH_PERCENT;
  const full = targets.youngGenerationBytes > 0 && youngGenerationSize() >= targets.youngGenerationBytes;
  const flags = `--heap-growing-percent=${growth} --semi-space-growth-factor=${full ? 1 : V8_SEMI_SPACE_GROWTH}`;
  const now = performance.now();
  if (flags === applied && now - appliedAt < REASSERT_EVERY_MS) {
    // A Worker's isolate resets the growth factor to 2 a few ms after `new Worker`, unannounced: while the
    // young generation is full, stopping its growth is set on every look (~7 µs per 5 ms, 0.14 % of a core).
    if (full) setFlagsFromString('--semi-space-growth-factor=1');
    return;
  }
  for (const flag of flags.split(' ')) setFlagsFromString(flag);
  applied = flags;
  appliedAt = now;
}

/** The targets in force, or undefined when V8 decides alone. */
export function heapTargets(): HeapTargets | undefined {
  return current;
}

/**
 * Keeps the heap near `targets` from now on (undefined, or both 0: V8's own
 * sizing again); returns the targets it replaces, to put back later.
 */
export function keepHeapNear(targets: HeapTargets | undefined): HeapTargets | undefined {
  const previous = current;
  applied = undefined;
  const active = targets !== undefined && (targets.growthPercent > 0 || targets.youngGenerationBytes > 0);
  current = active ? targets : undefined;
  if (current === undefined) {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    apply({ growthPercent: 0, youngGenerationBytes: 0 });
    return previous;
  }
  apply(current);
  if (timer === undefined) {
    timer = setInterval(() => {
      if (current !== undefined) apply(current);
    }, CHECK_EVERY_MS);
    // Never what keeps a finished process alive.
    timer.unref();
  }
  return previous;
}
