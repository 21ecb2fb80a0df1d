import type { Spider } from '../contracts/spider.js';
import type { Settings } from '../settings/settings.js';
import type { ValidationSample } from '../validation/index.js';

/**
 * What a monitor sees of a crawl: its stats (final ones at close), the
 * finish reason (null while it runs: a periodic check), how many scraped
 * items had each field FieldCoverageMonitor asks about, and the first items
 * that failed validation.
 */
export interface MonitorRun {
  readonly spider: Spider;
  readonly settings: Settings;
  readonly stats: Readonly<Record<string, unknown>>;
  /** The crawl's finish reason at close; null during the crawl (MONITORS_PERIODIC). */
  readonly finishReason: string | null;
  readonly periodic: boolean;
  /** `stats[key]` as a number (0 when absent). */
  stat(key: string): number;
  /** Scraped items whose `field` held a value (not undefined, null or ''); counted only for fields FieldCoverageMonitor names. */
  fieldCount(field: string): number;
  readonly validationSamples: readonly ValidationSample[];
}

/** A monitor's verdict: `ok` and one line saying why. */
export interface MonitorResult {
  ok: boolean;
  message: string;
}

/**
 * A check of a crawl (spidermon's monitor). `check` returns a result, or
 * nothing for a pass; throwing fails it with the error's message
 * (`throw new MonitorFailure('…')`, or `return fail('…')`).
 */
export interface Monitor {
  check(run: MonitorRun): MonitorResult | void | Promise<MonitorResult | void>;
}

/** A monitor class: built with its options from MONITORS (`{}` when it has none). */
export type MonitorClass = new (options: Record<string, unknown>) => Monitor;

export class MonitorFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MonitorFailure';
  }
}

export function pass(message: string): MonitorResult {
  return { ok: true, message };
}

export function fail(message: string): MonitorResult {
  return { ok: false, message };
}

/** A monitor's result as reported: which monitor, pass or fail, why. */
export interface MonitorOutcome extends MonitorResult {
  monitor: string;
}

/** Runs one monitor; a throw (or a rejected promise) is a failure with its message, never an escape. */
export async function runMonitor(name: string, monitor: Monitor, run: MonitorRun): Promise<MonitorOutcome> {
  try {
    const result = await monitor.check(run);
    if (result === undefined || result === null) return { monitor: name, ok: true, message: 'passed' };
    return { monitor: name, ok: Boolean(result.ok), message: String(result.message ?? '') };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const prefix = error instanceof Error && error.name !== 'MonitorFailure' ? `${error.name}: ` : '';
    return { monitor: name, ok: false, message: prefix + (message.split('\n')[0] ?? message) };
  }
}
