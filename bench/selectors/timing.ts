/**
 * The timing method, identical in parsel_bench.py so that the two numbers
 * measure the same thing: pages are read into memory beforehand (file I/O is
 * not timed); one measurement repeats whole passes over the page set —
 * parse + extract every page — until at least `seconds` have elapsed, and
 * reports pages / elapsed. A warm-up measurement is thrown away first (V8's
 * optimising tiers, lxml's caches), then the median of `repeat` measurements
 * is the result. Garbage is collected before each measurement and left on
 * during it, in both: a crawl pays for its garbage too.
 */

import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The npm script cannot pass --expose-gc. Setting the flag at run time and
// reading gc from a fresh context is the usual workaround; Node's docs warn
// that late flags may not take effect, but this one does on Node 20 (if it
// did not, the next line would throw a ReferenceError at start-up).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export interface TimingOptions {
  seconds: number;
  warmup: number;
  repeat: number;
}

export interface Timed {
  pagesPerSecond: number;
  /** Every measurement, pages/s, in the order taken. */
  runs: number[];
}

/** Work on one page; returns the number of strings it extracted (summed so V8 cannot drop the work). */
export type PageWork = (html: string) => number;

/**
 * --detail times each saved-page query alone (46 of them) and parsing alone:
 * shorter measurements keep that under a minute per engine. They locate
 * where time goes; the headline numbers use the full options.
 */
export const DETAIL_TIMING: TimingOptions = { seconds: 0.5, warmup: 0.2, repeat: 1 };

/** Every work result is added here: a module-level total the optimiser cannot prove unused. */
let sink = 0;

export function measure(pages: readonly string[], work: PageWork, seconds: number): number {
  if (pages.length === 0) throw new Error('measure: the page set is empty; nothing to time');
  // Each measurement starts from a collected heap, so none pays for the garbage of the one before.
  collectGarbage();
  let done = 0;
  const start = performance.now();
  for (;;) {
    for (const html of pages) sink += work(html);
    done += pages.length;
    const elapsed = (performance.now() - start) / 1000;
    if (elapsed >= seconds) return done / elapsed;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function timed(pages: readonly string[], work: PageWork, options: TimingOptions): Timed {
  measure(pages, work, options.warmup);
  const runs: number[] = [];
  for (let i = 0; i < options.repeat; i++) runs.push(measure(pages, work, options.seconds));
  return { pagesPerSecond: median(runs), runs };
}
