/**
 * What each engine reports, in the JSON shape parsel_bench.py prints, so
 * the report code treats seine, parsel and the baselines alike.
 */

/** One query's output on one page, or the error it raised. */
export interface QueryValues {
  label: string;
  /** seine side only: which listing field ('title', …, 'links', 'entries', 'parse') the entry belongs to. */
  key?: string;
  values?: string[];
  error?: string;
}

/** Set name → one list per page → one entry per query (in queries.json order). */
export type ExtractedValues = Record<string, QueryValues[][]>;

export interface SetResult {
  name: string;
  pages: number;
  /** Strings extracted in one untimed pass over the set (get() counts 0 or 1). */
  strings: number;
  /** Median pages/s, or null when the set could not be timed (see errors). */
  pagesPerSecond: number | null;
  runs: number[];
  /** Queries that threw (left out of the timing) and fatal problems. */
  errors: string[];
  /** --detail: pages/s of parsing alone. */
  parseOnly?: number;
  /** --detail, saved pages: milliseconds per run of each query alone on the parsed page; null where it threw. */
  perQueryMs?: Array<number | null>;
}

export interface EngineResult {
  engine: string;
  versions: Record<string, string>;
  sets: SetResult[];
}

export function countStrings(pages: readonly QueryValues[][]): number {
  let n = 0;
  for (const page of pages) for (const q of page) n += q.values?.length ?? 0;
  return n;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
