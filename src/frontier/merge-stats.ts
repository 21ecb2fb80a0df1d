/**
 * One view of a shared crawl's stats from each worker's last snapshot (a
 * worker stores its stats in Redis every renewal and once more when it
 * closes). Counters add up; peaks and floors (`…max`, `…min`) keep the
 * highest and lowest; `start_time` is the earliest start, `finish_time` the
 * latest finish and `elapsed_time_seconds` the longest worker's; texts that
 * differ between workers (`finish_reason`) are listed once each, sorted.
 * `memusage/…` values are one process's readings or flags, not counters:
 * adding them gave a `memusage/startup` of two workers above the one
 * `memusage/max` kept, so each keeps its highest worker's value.
 */

const EARLIEST = new Set(['start_time']);
const LATEST = new Set(['finish_time']);
const LONGEST = new Set(['elapsed_time_seconds']);

type Snapshot = Readonly<Record<string, unknown>>;

function isDateText(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value) && !Number.isNaN(Date.parse(value));
}

function mergeNumbers(key: string, values: number[]): number {
  if (LONGEST.has(key) || /max$/i.test(key) || key.startsWith('memusage/')) return Math.max(...values);
  if (/min$/i.test(key)) return Math.min(...values);
  return values.reduce((sum, value) => sum + value, 0);
}

function mergeTimes(key: string, values: string[]): string {
  const times = values.map((value) => Date.parse(value));
  const pick = LATEST.has(key) ? Math.max(...times) : Math.min(...times);
  return values[times.indexOf(pick)]!;
}

/** Merges snapshots in the order given; a key some workers lack is merged from those that have it. */
export function mergeStats(snapshots: readonly Snapshot[]): Record<string, unknown> {
  const byKey = new Map<string, unknown[]>();
  for (const snapshot of snapshots) {
    for (const [key, value] of Object.entries(snapshot)) {
      if (value === undefined || value === null) continue;
      const values = byKey.get(key);
      if (values === undefined) byKey.set(key, [value]);
      else values.push(value);
    }
  }
  const merged: Record<string, unknown> = {};
  for (const key of [...byKey.keys()].sort()) {
    const values = byKey.get(key)!;
    if (values.every((value) => typeof value === 'number')) merged[key] = mergeNumbers(key, values as number[]);
    else if ((EARLIEST.has(key) || LATEST.has(key)) && values.every(isDateText)) merged[key] = mergeTimes(key, values as string[]);
    else {
      const distinct = [...new Set(values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))))].sort();
      merged[key] = distinct.join(', ');
    }
  }
  // A process's peak is never below its startup reading; this keeps that true
  // of the merged view whatever the snapshots hold (one without a peak yet).
  const startup = merged['memusage/startup'];
  if (typeof startup === 'number') merged['memusage/max'] = Math.max(startup, typeof merged['memusage/max'] === 'number' ? merged['memusage/max'] : startup);
  return merged;
}
