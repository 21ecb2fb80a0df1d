import { fail, pass, type Monitor, type MonitorResult, type MonitorRun } from './monitor.js';
import { MonitorOptions, percent } from './monitor-options.js';

/** `item_scraped_count` within { min (default 1), max }. */
export class ItemCountMonitor implements Monitor {
  readonly min: number;
  readonly max: number | undefined;
  constructor(options: Record<string, unknown> = {}) {
    const o = new MonitorOptions('ItemCountMonitor', options, ['min', 'max']);
    this.min = o.number('min', 1)!;
    this.max = o.number('max', undefined);
  }

  check(run: MonitorRun): MonitorResult {
    const count = run.stat('item_scraped_count');
    const bounds = this.max === undefined ? `min ${this.min}` : `min ${this.min}, max ${this.max}`;
    // During the crawl the items are still coming: only a maximum can be broken early.
    const short = count < this.min && !run.periodic;
    const over = this.max !== undefined && count > this.max;
    return short || over ? fail(`${count} items scraped (${bounds})`) : pass(`${count} items scraped (${bounds})`);
  }
}

/** `log_count/ERROR` at most { max (default 0) }. */
export class ErrorCountMonitor implements Monitor {
  readonly max: number;
  constructor(options: Record<string, unknown> = {}) {
    this.max = new MonitorOptions('ErrorCountMonitor', options, ['max']).number('max', 0)!;
  }

  check(run: MonitorRun): MonitorResult {
    const errors = run.stat('log_count/ERROR');
    const line = `${errors} errors logged (max ${this.max})`;
    return errors > this.max ? fail(line) : pass(line);
  }
}

/** The finish reason is one of { allowed (default ['finished']) }; passes while the crawl runs. */
export class FinishReasonMonitor implements Monitor {
  readonly allowed: string[];
  constructor(options: Record<string, unknown> = {}) {
    this.allowed = new MonitorOptions('FinishReasonMonitor', options, ['allowed']).strings('allowed', ['finished']);
  }

  check(run: MonitorRun): MonitorResult {
    if (run.finishReason === null) return pass('the crawl is still running');
    const line = `finished with '${run.finishReason}' (allowed: ${this.allowed.join(', ')})`;
    return this.allowed.includes(run.finishReason) ? pass(line) : fail(line);
  }
}

/** Each of { fields: { name: least share } } held a value in at least that share of the scraped items. */
export class FieldCoverageMonitor implements Monitor {
  readonly fields: Record<string, number>;
  constructor(options: Record<string, unknown> = {}) {
    this.fields = new MonitorOptions('FieldCoverageMonitor', options, ['fields']).rates('fields');
  }

  check(run: MonitorRun): MonitorResult {
    const items = run.stat('item_scraped_count');
    if (items === 0) return run.periodic ? pass('no items yet') : fail('no items scraped: field coverage cannot be measured');
    const short: string[] = [];
    const all: string[] = [];
    for (const [field, least] of Object.entries(this.fields)) {
      const share = run.fieldCount(field) / items;
      const line = `${field} ${percent(share)} (min ${percent(least)})`;
      all.push(line);
      if (share < least) short.push(line);
    }
    return short.length > 0 ? fail(`of ${items} items: ${short.join(', ')}`) : pass(`of ${items} items: ${all.join(', ')}`);
  }
}

/** Retries (`retry/count`) per request made (`downloader/request_count`) at most { max (default 0.1) }. */
export class RetryRateMonitor implements Monitor {
  readonly max: number;
  constructor(options: Record<string, unknown> = {}) {
    this.max = new MonitorOptions('RetryRateMonitor', options, ['max']).number('max', 0.1, { rate: true })!;
  }

  check(run: MonitorRun): MonitorResult {
    const requests = run.stat('downloader/request_count');
    const retries = run.stat('retry/count');
    const share = requests === 0 ? 0 : retries / requests;
    const line = `${retries} retries of ${requests} requests, ${percent(share)} (max ${percent(this.max)})`;
    return share > this.max ? fail(line) : pass(line);
  }
}

/** Responses with a ban status ({ statuses (default [429, 403]) }) per response at most { max (default 0.05) }. */
export class BanRateMonitor implements Monitor {
  readonly max: number;
  readonly statuses: number[];
  constructor(options: Record<string, unknown> = {}) {
    const o = new MonitorOptions('BanRateMonitor', options, ['max', 'statuses']);
    this.max = o.number('max', 0.05, { rate: true })!;
    this.statuses = o.numbers('statuses', [429, 403]);
  }

  check(run: MonitorRun): MonitorResult {
    const responses = run.stat('downloader/response_count');
    const banned = this.statuses.reduce((sum, status) => sum + run.stat(`downloader/response_status_count/${status}`), 0);
    const share = responses === 0 ? 0 : banned / responses;
    const line = `${banned} of ${responses} responses were ${this.statuses.join('/')}, ${percent(share)} (max ${percent(this.max)})`;
    return share > this.max ? fail(line) : pass(line);
  }
}

/** Items that failed the spider's itemSchema (`validation/items_failed`) at most { max (default 0) } and/or { maxRate } of those checked. */
export class ValidationMonitor implements Monitor {
  readonly max: number | undefined;
  readonly maxRate: number | undefined;
  constructor(options: Record<string, unknown> = {}) {
    const o = new MonitorOptions('ValidationMonitor', options, ['max', 'maxRate']);
    this.maxRate = o.number('maxRate', undefined, { rate: true });
    this.max = o.number('max', this.maxRate === undefined ? 0 : undefined);
  }

  check(run: MonitorRun): MonitorResult {
    const checked = run.stat('validation/items_checked');
    const failed = run.stat('validation/items_failed');
    const share = checked === 0 ? 0 : failed / checked;
    const limits = [this.max === undefined ? '' : `max ${this.max}`, this.maxRate === undefined ? '' : `max ${percent(this.maxRate)}`].filter(Boolean).join(', ');
    const line = `${failed} of ${checked} items failed validation (${limits})`;
    const broken = (this.max !== undefined && failed > this.max) || (this.maxRate !== undefined && share > this.maxRate);
    return broken ? fail(line) : pass(line);
  }
}

export const BUILTIN_MONITORS: ReadonlyMap<string, new (options: Record<string, unknown>) => Monitor> = new Map<string, new (options: Record<string, unknown>) => Monitor>([
  ['ItemCountMonitor', ItemCountMonitor],
  ['ErrorCountMonitor', ErrorCountMonitor],
  ['FinishReasonMonitor', FinishReasonMonitor],
  ['FieldCoverageMonitor', FieldCoverageMonitor],
  ['RetryRateMonitor', RetryRateMonitor],
  ['BanRateMonitor', BanRateMonitor],
  ['ValidationMonitor', ValidationMonitor],
]);
