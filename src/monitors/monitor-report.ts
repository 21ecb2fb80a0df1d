import type { ValidationSample } from '../validation/index.js';
import type { MonitorOutcome } from './monitor.js';

/** What MONITORS_REPORT holds (JSON) and what the close-time block says (text). */
export interface MonitorReport {
  spider: string;
  finishReason: string | null;
  /** ISO time the monitors ran. */
  checkedAt: string;
  passed: boolean;
  monitors: MonitorOutcome[];
  validation: { itemsChecked: number; itemsFailed: number; samples: ValidationSample[] };
}

/** The report as one log message, a block like the stats dump: a line per monitor, then the validation samples. */
export function reportText(report: MonitorReport): string {
  const failed = report.monitors.filter((m) => !m.ok).length;
  const lines = [`Monitors: ${report.monitors.length - failed} passed, ${failed} failed${failed > 0 ? ' — the crawl will exit with status 3' : ''}`];
  for (const m of report.monitors) lines.push(`  ${m.ok ? 'PASS' : 'FAIL'} ${m.monitor}: ${m.message}`);
  const v = report.validation;
  if (v.itemsChecked > 0) {
    lines.push(`Validation: ${v.itemsFailed} of ${v.itemsChecked} items failed${v.samples.length > 0 ? `; the first ${v.samples.length}:` : ''}`);
    for (const sample of v.samples) {
      lines.push(`  ${sample.issues.map((i) => `${i.field} (${i.code}: ${i.message})`).join('; ')}`);
      lines.push(`    ${truncate(safeJson(sample.item), 300)}`);
    }
  }
  return lines.join('\n');
}

/** Slack's incoming-webhook body: `text` for every client, one `section` block per failed monitor. */
export function webhookPayload(report: MonitorReport, headline: string): { text: string; blocks: unknown[] } {
  const failed = report.monitors.filter((m) => !m.ok);
  const detail = (failed.length > 0 ? failed : report.monitors).map((m) => `${m.ok ? 'PASS' : 'FAIL'} ${m.monitor}: ${m.message}`);
  return {
    text: [headline, ...detail].join('\n'),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${headline}*` } },
      ...detail.map((line) => ({ type: 'section', text: { type: 'mrkdwn', text: line } })),
    ],
  };
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
