import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Spider } from '../../src/contracts/spider.js';
import type { Response } from '../../src/http/response.js';
import { fail, MonitorFailure, type MonitorRun } from '../../src/monitors/index.js';
import { runCrawl, startSite, type CrawlResult, type TestSite } from '../helpers/site-server.js';

let site: TestSite;
let flaky = 0;

beforeAll(async () => {
  const page = (n: number, author: boolean) => `<div class="q"><span>Quote ${n}</span>${author ? '<small>Ann</small>' : ''}</div>`;
  site = await startSite({
    '/': `<html><body>${[1, 2, 3, 4].map((n) => page(n, n !== 4)).join('')}<a href="/a">a</a><a href="/b">b</a><a href="/banned">x</a><a href="/flaky">y</a></body></html>`,
    '/a': `<html><body>${page(5, true)}</body></html>`,
    '/b': `<html><body>${page(6, true)}</body></html>`,
    '/banned': (_req, res) => void res.writeHead(403).end('no'),
    '/flaky': (_req, res) => void (flaky++ % 2 === 0 ? res.writeHead(503).end('busy') : res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>')),
  });
});
afterAll(() => site.close());

class Quotes extends Spider {
  static override name = 'quotes';
  override startUrls = [site.url('/')];
  override *parse(response: Response): Generator<unknown> {
    for (const q of response.css('div.q')) yield { text: q.css('span::text').get(), author: q.css('small::text').get() };
    yield* response.followAll(response.css('a::attr(href)').getall(), { callback: this.parse });
  }
}

class Broken extends Quotes {
  static override name = 'broken';
  override *parse(response: Response): Generator<unknown> {
    if (response.url.endsWith('/b')) throw new Error('layout changed');
    yield* super.parse(response);
  }
}

function reportLines(result: CrawlResult): string[] {
  const report = result.logs.find((l) => l.logger === 'seine.monitors' && l.message.startsWith('Monitors: '));
  return report === undefined ? [] : report.message.split('\n');
}

describe('MONITORS at close', () => {
  it('passes every built-in monitor on a crawl within their limits: one INFO block, monitors/failed 0', async () => {
    const result = await runCrawl(Quotes, {
      RETRY_TIMES: 1,
      MONITORS: {
        ItemCountMonitor: { min: 6 },
        ErrorCountMonitor: { max: 0 },
        FinishReasonMonitor: { allowed: ['finished'] },
        FieldCoverageMonitor: { fields: { text: 1, author: 0.8 } },
        RetryRateMonitor: { max: 0.2 },
        BanRateMonitor: { max: 0.2 },
      },
    });
    expect(result.stats['item_scraped_count']).toBe(6);
    expect(reportLines(result)).toEqual([
      'Monitors: 6 passed, 0 failed',
      '  PASS ItemCountMonitor: 6 items scraped (min 6)',
      '  PASS ErrorCountMonitor: 0 errors logged (max 0)',
      "  PASS FinishReasonMonitor: finished with 'finished' (allowed: finished)",
      '  PASS FieldCoverageMonitor: of 6 items: text 100.0% (min 100.0%), author 83.3% (min 80.0%)',
      '  PASS RetryRateMonitor: 1 retries of 6 requests, 16.7% (max 20.0%)',
      '  PASS BanRateMonitor: 1 of 6 responses were 429/403, 16.7% (max 20.0%)',
    ]);
    expect(result.logs.find((l) => l.message.startsWith('Monitors: '))?.level).toBe('INFO');
    expect(result.stats['monitors/passed']).toBe(6);
    expect(result.stats['monitors/failed']).toBe(0);
  });

  it('fails each built-in monitor past its limit, says why in a WARNING block, and writes the JSON report', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'seine-monitors-')), 'report.json');
    const result = await runCrawl(Broken, {
      RETRY_TIMES: 1,
      MONITORS_REPORT: path,
      MONITORS: {
        ItemCountMonitor: { min: 100 },
        ErrorCountMonitor: { max: 0 },
        FinishReasonMonitor: { allowed: ['closespider_itemcount'] },
        FieldCoverageMonitor: { fields: { author: 0.95 } },
        RetryRateMonitor: { max: 0.1 },
        BanRateMonitor: { max: 0.05, statuses: [403] },
      },
    });
    const lines = [
      'Monitors: 0 passed, 6 failed — the crawl will exit with status 3',
      '  FAIL ItemCountMonitor: 5 items scraped (min 100)',
      '  FAIL ErrorCountMonitor: 1 errors logged (max 0)',
      "  FAIL FinishReasonMonitor: finished with 'finished' (allowed: closespider_itemcount)",
      '  FAIL FieldCoverageMonitor: of 5 items: author 80.0% (min 95.0%)',
      '  FAIL RetryRateMonitor: 1 retries of 6 requests, 16.7% (max 10.0%)',
      '  FAIL BanRateMonitor: 1 of 6 responses were 403, 16.7% (max 5.0%)',
    ];
    expect(reportLines(result)).toEqual(lines);
    expect(result.logs.find((l) => l.message.startsWith('Monitors: '))?.level).toBe('WARNING');
    expect(result.stats['monitors/failed']).toBe(6);
    const report = JSON.parse(readFileSync(path, 'utf8')) as { spider: string; finishReason: string; passed: boolean; monitors: Array<{ monitor: string; ok: boolean; message: string }> };
    expect(report.spider).toBe('broken');
    expect(report.finishReason).toBe('finished');
    expect(report.passed).toBe(false);
    expect(report.monitors.map((m) => `  ${m.ok ? 'PASS' : 'FAIL'} ${m.monitor}: ${m.message}`)).toEqual(lines.slice(1));
  });

  it("runs the spider's own monitor classes (static monitors, or a class in a MONITORS Map) with their options", async () => {
    class QuoteTextMonitor {
      constructor(readonly options: { prefix?: string }) {}
      check(run: MonitorRun) {
        const prefix = this.options.prefix ?? 'Quote';
        return run.stat('item_scraped_count') > 0 ? undefined : fail(`no item starts with ${prefix}`);
      }
    }
    class ThrowingMonitor {
      check(): never {
        throw new MonitorFailure('the site changed its layout');
      }
    }
    class Watched extends Quotes {
      static override name = 'watched';
      static monitors = [QuoteTextMonitor];
    }
    const result = await runCrawl(Watched, { MONITORS: new Map<unknown, unknown>([['QuoteTextMonitor', { prefix: 'Q' }], [ThrowingMonitor, {}]]) });
    expect(reportLines(result)).toEqual(['Monitors: 1 passed, 1 failed — the crawl will exit with status 3', '  PASS QuoteTextMonitor: passed', '  FAIL ThrowingMonitor: the site changed its layout']);
  });

  it('ValidationMonitor fails on items the itemSchema dropped, and the report shows the first samples', async () => {
    class Checked extends Quotes {
      static override name = 'checked';
      static itemSchema = z.object({ text: z.string(), author: z.string() });
    }
    const result = await runCrawl(Checked, { MONITORS: { ValidationMonitor: { max: 0 } } });
    expect(reportLines(result)).toEqual([
      'Monitors: 0 passed, 1 failed — the crawl will exit with status 3',
      '  FAIL ValidationMonitor: 1 of 6 items failed validation (max 0)',
      'Validation: 1 of 6 items failed; the first 1:',
      '  author (invalid_type: Invalid input: expected string, received null)',
      '    {"text":"Quote 4","author":null}',
    ]);
  });
});

describe('FieldCoverageMonitor', () => {
  it("counts a dotted path into nested objects, and a field that is undefined, null or '' as missing", async () => {
    class Nested extends Spider {
      static override name = 'nested';
      override startUrls = [site.url('/a')];
      override *parse(): Generator<unknown> {
        yield { title: 'a', offer: { price: 1 } };
        yield { title: '', offer: { price: null } };
        yield { title: null, offer: {} };
        yield { 'offer.price': 3 };
      }
    }
    const result = await runCrawl(Nested, { MONITORS: { FieldCoverageMonitor: { fields: { title: 0.25, 'offer.price': 0.5 } } } });
    expect(reportLines(result)).toEqual(['Monitors: 1 passed, 0 failed', '  PASS FieldCoverageMonitor: of 4 items: title 25.0% (min 25.0%), offer.price 50.0% (min 50.0%)']);
  });
});

describe('MONITORS settings', () => {
  it.each([
    [{ MONITORS: { ItemCountMonitr: { min: 1 } } }, /^MONITORS: unknown monitor 'ItemCountMonitr': use one of ItemCountMonitor, ErrorCountMonitor, /],
    [{ MONITORS: { ItemCountMonitor: { minimum: 1 } } }, /^MONITORS: ItemCountMonitor has no option 'minimum' \(its options: min, max\)$/],
    [{ MONITORS: { RetryRateMonitor: { max: 10 } } }, /^MONITORS: RetryRateMonitor option 'max' must be a share between 0 and 1, e.g. 0.1, got 10$/],
    [{ MONITORS: { FieldCoverageMonitor: {} } }, /^MONITORS: FieldCoverageMonitor needs option 'fields'/],
    [{ MONITORS_PERIODIC: { every: 60 } }, /^MONITORS_PERIODIC has no key 'every': write it as \{ seconds: 60, monitors: /],
    [{ MONITORS: { ErrorCountMonitor: {} }, MONITORS_WEBHOOK_URL: 'hooks.slack.com/x' }, /^MONITORS_WEBHOOK_URL must be an http:\/\/ or https:\/\/ URL/],
  ])('%j stops the crawl before any request with one line', async (settings, message) => {
    site.reset();
    await expect(runCrawl(Quotes, settings)).rejects.toThrow(message);
    expect(site.hits).toEqual([]);
  });
});
