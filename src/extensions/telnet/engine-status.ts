/**
 * The reports the console's `est()` and `prefs()` print, in Scrapy's layout
 * (scrapy.utils.engine.format_engine_status, scrapy.utils.trackref.format_live_refs).
 */

export type EngineStatusValue = string | number | boolean;
/** One line of `est()`: what was measured (Scrapy writes the expression) and its value. */
export type EngineStatusRow = readonly [label: string, value: EngineStatusValue];

/** Objects of one kind that are alive now, for `prefs()`. */
export interface LiveRefCount {
  readonly name: string;
  readonly count: number;
  /** When the oldest of them was created (a Date or epoch milliseconds). */
  readonly oldest: Date | number;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/**
 * `Execution engine status`, a blank line, one `label : value` line per row
 * (labels padded to 47 as Scrapy does) and a closing blank line. A status
 * function that throws gives Scrapy's `<ErrorName> (exception)` in place of the rows.
 */
export function formatEngineStatus(engineStatus: () => readonly EngineStatusRow[]): string {
  let report = 'Execution engine status\n\n';
  let rows: readonly EngineStatusRow[];
  try {
    rows = engineStatus();
  } catch (error) {
    rows = [['engineStatus()', `${errorName(error)} (exception)`]];
  }
  for (const [label, value] of rows) report += `${label.padEnd(47)} : ${String(value)}\n`;
  return `${report}\n`;
}

/** `Live References`, a blank line, then `<name padded to 30> <count padded to 6>   oldest: <n>s ago`. */
export function formatLiveRefs(refs: readonly LiveRefCount[] | undefined, now: number = Date.now()): string {
  let report = 'Live References\n\n';
  if (refs === undefined) return `${report}(this crawl tracks no live references)\n`;
  const sorted = [...refs].filter((ref) => ref.count > 0).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const ref of sorted) {
    const age = Math.trunc((now - Number(ref.oldest)) / 1000);
    report += `${ref.name.padEnd(30)} ${String(ref.count).padStart(6)}   oldest: ${age}s ago\n`;
  }
  return report;
}
