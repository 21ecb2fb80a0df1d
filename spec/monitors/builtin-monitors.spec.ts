import { describe, expect, it } from '@jest/globals';
import { Spider } from '../../src/contracts/spider.js';
import { Settings } from '../../src/settings/settings.js';
import {
  BanRateMonitor, ErrorCountMonitor, FieldCoverageMonitor, FinishReasonMonitor, ItemCountMonitor, RetryRateMonitor, ValidationMonitor,
  type Monitor, type MonitorRun,
} from '../../src/monitors/index.js';
import { runMonitor } from '../../src/monitors/monitor.js';

/** A run with these stats; `finishReason` null is a periodic check. */
function run(stats: Record<string, number>, finishReason: string | null = 'finished', fields: Record<string, number> = {}): MonitorRun {
  return {
    spider: new Spider(),
    settings: new Settings(),
    stats,
    finishReason,
    periodic: finishReason === null,
    stat: (key) => stats[key] ?? 0,
    fieldCount: (field) => fields[field] ?? 0,
    validationSamples: [],
  };
}

const verdict = async (monitor: Monitor, r: MonitorRun): Promise<string> => {
  const outcome = await runMonitor('M', monitor, r);
  return `${outcome.ok ? 'PASS' : 'FAIL'} ${outcome.message}`;
};

describe('the built-in monitors', () => {
  it('ItemCountMonitor: min 1 by default; max; during the crawl only the max can fail', async () => {
    expect(await verdict(new ItemCountMonitor({}), run({}))).toBe('FAIL 0 items scraped (min 1)');
    expect(await verdict(new ItemCountMonitor({ min: 2, max: 3 }), run({ item_scraped_count: 4 }))).toBe('FAIL 4 items scraped (min 2, max 3)');
    expect(await verdict(new ItemCountMonitor({ min: 2, max: 3 }), run({ item_scraped_count: 3 }))).toBe('PASS 3 items scraped (min 2, max 3)');
    expect(await verdict(new ItemCountMonitor({ min: 100 }), run({ item_scraped_count: 3 }, null))).toBe('PASS 3 items scraped (min 100)');
    expect(await verdict(new ItemCountMonitor({ min: 1, max: 2 }), run({ item_scraped_count: 3 }, null))).toBe('FAIL 3 items scraped (min 1, max 2)');
  });

  it('ErrorCountMonitor counts log_count/ERROR against max (0 by default)', async () => {
    expect(await verdict(new ErrorCountMonitor({}), run({ 'log_count/ERROR': 1 }))).toBe('FAIL 1 errors logged (max 0)');
    expect(await verdict(new ErrorCountMonitor({ max: 1 }), run({ 'log_count/ERROR': 1 }))).toBe('PASS 1 errors logged (max 1)');
  });

  it("FinishReasonMonitor allows ['finished'] by default and passes while the crawl runs", async () => {
    expect(await verdict(new FinishReasonMonitor({}), run({}, 'closespider_timeout'))).toBe("FAIL finished with 'closespider_timeout' (allowed: finished)");
    expect(await verdict(new FinishReasonMonitor({ allowed: ['finished', 'closespider_itemcount'] }), run({}, 'closespider_itemcount'))).toBe(
      "PASS finished with 'closespider_itemcount' (allowed: finished, closespider_itemcount)",
    );
    expect(await verdict(new FinishReasonMonitor({}), run({}, null))).toBe('PASS the crawl is still running');
  });

  it('FieldCoverageMonitor fails at close without items, passes during the crawl without them', async () => {
    const monitor = new FieldCoverageMonitor({ fields: { author: 0.5 } });
    expect(await verdict(monitor, run({}))).toBe('FAIL no items scraped: field coverage cannot be measured');
    expect(await verdict(monitor, run({}, null))).toBe('PASS no items yet');
    expect(await verdict(monitor, run({ item_scraped_count: 4 }, 'finished', { author: 1 }))).toBe('FAIL of 4 items: author 25.0% (min 50.0%)');
  });

  it('RetryRateMonitor and BanRateMonitor: shares, with no requests a share of 0', async () => {
    expect(await verdict(new RetryRateMonitor({}), run({}))).toBe('PASS 0 retries of 0 requests, 0.0% (max 10.0%)');
    expect(await verdict(new RetryRateMonitor({}), run({ 'retry/count': 2, 'downloader/request_count': 10 }))).toBe('FAIL 2 retries of 10 requests, 20.0% (max 10.0%)');
    const bans = { 'downloader/response_count': 20, 'downloader/response_status_count/429': 1, 'downloader/response_status_count/403': 1, 'downloader/response_status_count/503': 5 };
    expect(await verdict(new BanRateMonitor({}), run(bans))).toBe('FAIL 2 of 20 responses were 429/403, 10.0% (max 5.0%)');
    expect(await verdict(new BanRateMonitor({ statuses: [503], max: 0.3 }), run(bans))).toBe('PASS 5 of 20 responses were 503, 25.0% (max 30.0%)');
  });

  it('ValidationMonitor: max 0 by default, or a maxRate of the items checked', async () => {
    const stats = { 'validation/items_checked': 100, 'validation/items_failed': 3 };
    expect(await verdict(new ValidationMonitor({}), run(stats))).toBe('FAIL 3 of 100 items failed validation (max 0)');
    expect(await verdict(new ValidationMonitor({ maxRate: 0.05 }), run(stats))).toBe('PASS 3 of 100 items failed validation (max 5.0%)');
    expect(await verdict(new ValidationMonitor({ max: 10, maxRate: 0.01 }), run(stats))).toBe('FAIL 3 of 100 items failed validation (max 10, max 1.0%)');
  });

  it("a monitor that throws or rejects fails with the error's name and its first line", async () => {
    const throwing = { check: () => { throw new TypeError('no price\nat line 3'); } };
    expect(await verdict(throwing, run({}))).toBe('FAIL TypeError: no price');
    const rejecting = { check: () => Promise.reject(new Error('down')) };
    expect(await verdict(rejecting, run({}))).toBe('FAIL Error: down');
  });
});
