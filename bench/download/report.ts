/**
 * The tables bench/download-micro.ts prints: per client and mode the medians
 * over the runs, then what the got-based clients cost above the others, in
 * µs of client CPU per request and as a share of a crawl page's CPU budget.
 */

export interface Sample {
  client: string;
  mode: string;
  reqPerSec: number;
  /** Client process CPU (user + system) per request, µs. */
  cpuUs: number;
  serverUs: number;
  /** RSS growth, MB: importing and creating the client; during warm-up and measured requests. */
  rssLoadMb: number;
  rssRunMb: number;
}

export interface Row {
  client: string;
  mode: string;
  runs: number;
  reqPerSec: number;
  cpuUs: number;
  cpuMin: number;
  cpuMax: number;
  serverUs: number;
  rssLoadMb: number;
  rssRunMb: number;
}

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One row per (client, mode), in the order the pairs first appear. */
export function summarize(samples: readonly Sample[]): Row[] {
  const groups = new Map<string, Sample[]>();
  for (const s of samples) {
    const key = `${s.mode}\u0000${s.client}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()].map((group) => {
    const cpu = group.map((s) => s.cpuUs);
    return {
      client: group[0]!.client,
      mode: group[0]!.mode,
      runs: group.length,
      reqPerSec: median(group.map((s) => s.reqPerSec)),
      cpuUs: median(cpu),
      cpuMin: Math.min(...cpu),
      cpuMax: Math.max(...cpu),
      serverUs: median(group.map((s) => s.serverUs)),
      rssLoadMb: median(group.map((s) => s.rssLoadMb)),
      rssRunMb: median(group.map((s) => s.rssRunMb)),
    };
  });
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const mb = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;

/** A Markdown table (it reads as plain text too). */
export function formatTable(rows: readonly Row[]): string {
  const header = ['client', 'mode', 'req/s', 'client CPU µs/req', 'min–max', 'server CPU µs/req', 'RSS MB import', 'RSS MB requests'];
  const body = rows.map((r) => [r.client, r.mode, int(r.reqPerSec), int(r.cpuUs), `${int(r.cpuMin)}–${int(r.cpuMax)}`, int(r.serverUs), mb(r.rssLoadMb), mb(r.rssRunMb)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const right = [false, false, true, true, true, true, true, true];
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

/**
 * For each of `subjects` against each of `baselines`, per mode: the
 * difference of the median client CPU per request, and that difference as a
 * share of `budgetUs` (a crawl page's CPU).
 */
export function formatOverhead(rows: readonly Row[], subjects: readonly string[], baselines: readonly string[], budgetUs: number): string {
  const modes = [...new Set(rows.map((r) => r.mode))];
  const find = (client: string, mode: string): Row | undefined => rows.find((r) => r.client === client && r.mode === mode);
  const lines: string[] = [];
  for (const subject of subjects) {
    for (const baseline of baselines) {
      if (subject === baseline) continue;
      const parts: string[] = [];
      for (const mode of modes) {
        const a = find(subject, mode);
        const b = find(baseline, mode);
        if (a === undefined || b === undefined) continue;
        const diff = a.cpuUs - b.cpuUs;
        const sign = diff >= 0 ? '+' : '−';
        parts.push(`${mode} ${sign}${int(Math.abs(diff))} µs (${sign}${((100 * Math.abs(diff)) / budgetUs).toFixed(1)} %, ×${(a.cpuUs / b.cpuUs).toFixed(2)})`);
      }
      if (parts.length > 0) lines.push(`${subject} − ${baseline}: ${parts.join('; ')}`);
    }
  }
  return lines.join('\n');
}
