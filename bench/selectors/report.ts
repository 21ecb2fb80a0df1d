/**
 * Formats the results: the headline table (page set, seine pages/s, parsel
 * pages/s, ratio, target, PASS/BELOW), and the optional detail and baseline
 * tables.
 */

import type { SetResult } from './results.js';

/** The issues' targets, seine pages/s ÷ parsel pages/s, by page set (the listing set's raised from 1.0× by issue 26). */
export const TARGETS: Readonly<Record<string, number>> = { 'page-100k.html': 0.5, listing: 2.5 };

export function formatRate(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}

/** Half the min–max spread of the runs, as a percentage of the median: how much to trust the last digit. */
function spread(set: SetResult | undefined): string {
  if (set === undefined || set.pagesPerSecond === null || set.runs.length < 2) return '';
  const half = ((Math.max(...set.runs) - Math.min(...set.runs)) / 2 / set.pagesPerSecond) * 100;
  return ` ±${half < 1 ? half.toFixed(1) : Math.round(half)}%`;
}

export function renderTable(header: readonly string[], rows: readonly string[][], rightAligned: ReadonlySet<number>): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (rightAligned.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export interface Row {
  label: string;
  seine: SetResult | undefined;
  parsel: SetResult | undefined;
  /** The extracted strings differ between the engines (see the agreement lines). */
  disagrees: boolean;
}

export function verdict(row: Row): string {
  const target = TARGETS[row.seine?.name ?? row.parsel?.name ?? ''];
  const seine = row.seine?.pagesPerSecond ?? null;
  const parsel = row.parsel?.pagesPerSecond ?? null;
  if (target === undefined) return '—';
  if (seine === null) return 'NOT MEASURED';
  if (parsel === null) return '—';
  const result = seine / parsel >= target ? 'PASS' : 'BELOW';
  return (row.seine?.errors.length ?? 0) > 0 || row.disagrees ? `${result}*` : result;
}

export function headlineTable(rows: readonly Row[]): string {
  const body = rows.map((row) => {
    const name = row.seine?.name ?? row.parsel?.name ?? '';
    const target = TARGETS[name];
    const seine = row.seine?.pagesPerSecond ?? null;
    const parsel = row.parsel?.pagesPerSecond ?? null;
    const ratio = seine !== null && parsel !== null ? `${(seine / parsel).toFixed(2)}×` : '—';
    return [
      row.label,
      formatRate(seine) + spread(row.seine),
      formatRate(parsel) + spread(row.parsel),
      ratio,
      target === undefined ? '—' : `≥ ${target.toFixed(1)}×`,
      verdict(row),
    ];
  });
  return renderTable(['page set', 'seine pages/s', 'parsel pages/s', 'seine/parsel', 'target', 'result'], body, new Set([1, 2, 3]));
}

/** --detail: parse-only rates per set, and milliseconds per run of each saved-page query alone. */
export function detailTables(rows: readonly Row[], labels: ReadonlyMap<string, string[]>): string {
  const parse = renderTable(
    ['page set', 'seine parse-only pages/s', 'parsel parse-only pages/s'],
    rows.map((r) => [r.label, formatRate(r.seine?.parseOnly), formatRate(r.parsel?.parseOnly)]),
    new Set([1, 2]),
  );
  const parts = [parse];
  for (const row of rows) {
    const queries = labels.get(row.seine?.name ?? row.parsel?.name ?? '');
    if (queries === undefined) continue;
    const ms = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(3));
    const body = queries.map((q, i) => {
      const s = row.seine?.perQueryMs?.[i];
      const p = row.parsel?.perQueryMs?.[i];
      const ratio = s != null && p != null ? `${(p / s).toFixed(2)}×` : '—';
      return [q, ms(s), ms(p), ratio];
    });
    parts.push(
      `${row.label}: each query alone on the parsed page (ms per run, parse not included)\n` +
        renderTable(['query', 'seine ms', 'parsel ms', 'seine/parsel speed'], body, new Set([1, 2, 3])),
    );
  }
  return parts.join('\n\n');
}

export interface BaselineRow {
  what: string;
  pagesPerSecond: number | null;
  strings: number | null;
  note: string;
}

export function baselineTable(rows: readonly BaselineRow[], parselRate: number | null): string {
  return renderTable(
    ['listing set, one process', 'pages/s', 'vs parsel', 'strings', 'note'],
    rows.map((r) => [
      r.what,
      formatRate(r.pagesPerSecond),
      r.pagesPerSecond !== null && parselRate !== null ? `${(r.pagesPerSecond / parselRate).toFixed(2)}×` : '—',
      r.strings === null ? '—' : r.strings.toLocaleString('en-US'),
      r.note,
    ]),
    new Set([1, 2, 3]),
  );
}
