import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Subscription } from 'rxjs';
import { NotConfigured } from '../contracts/control-flow.js';
import type { Crawler } from '../contracts/crawler.js';
import type { Extension } from '../contracts/components.js';
import type { Logger } from '../log/index.js';
import { SettingsError } from '../settings/settings-error.js';
import { validationSamplesOf } from '../validation/index.js';
import { closeMonitors, coverageFields, periodicMonitors, spiderMonitorClasses, type ConfiguredMonitor, type PeriodicMonitors } from './monitor-config.js';
import { runMonitor, type MonitorOutcome, type MonitorRun } from './monitor.js';
import { reportText, webhookPayload, type MonitorReport } from './monitor-report.js';
import { postWebhook, redactedUrl } from './webhook.js';

/** Stats key whose count > 0 makes `seine crawl` exit with status 3. */
export const MONITORS_FAILED_STAT = 'monitors/failed';

/**
 * Runs MONITORS (and the spider's `static monitors`) once stats are final,
 * on spider_closed (after CoreStats set finish_reason, before the stats
 * dump), and MONITORS_PERIODIC every `seconds` while the crawl runs.
 * Logs the report, writes MONITORS_REPORT, sets `monitors/passed` and
 * `monitors/failed`, and posts failures to MONITORS_WEBHOOK_URL. Not built
 * when no monitor is configured; counts fields per item only for
 * FieldCoverageMonitor.
 */
export class Monitors implements Extension {
  readonly #crawler: Crawler;
  readonly #atClose: ConfiguredMonitor[];
  readonly #periodic: PeriodicMonitors | null;
  readonly #fieldCounts = new Map<string, number>();
  readonly #log: Logger;
  readonly #webhook: string | null;
  readonly #subscriptions: Subscription[] = [];
  #timer: NodeJS.Timeout | null = null;
  /** Periodic monitors that failed at their last check: a webhook goes out only when this changes. */
  readonly #failing = new Set<string>();
  readonly #deliveries = new Set<Promise<unknown>>();

  static fromCrawler(crawler: Crawler): Monitors {
    const own = spiderMonitorClasses(crawler.spider.constructor);
    const atClose = closeMonitors(crawler.settings, own);
    const periodic = periodicMonitors(crawler.settings, own);
    const webhook = crawler.settings.get('MONITORS_WEBHOOK_URL');
    if (webhook !== null && webhook !== '' && !/^https?:\/\//i.test(String(webhook))) {
      throw new SettingsError(`MONITORS_WEBHOOK_URL must be an http:// or https:// URL, got ${JSON.stringify(webhook)}`);
    }
    if (atClose.length === 0 && periodic === null) throw new NotConfigured('no MONITORS');
    return new Monitors(crawler, atClose, periodic);
  }

  constructor(crawler: Crawler, atClose: ConfiguredMonitor[], periodic: PeriodicMonitors | null) {
    this.#crawler = crawler;
    this.#atClose = atClose;
    this.#periodic = periodic;
    this.#log = crawler.logBus.getLogger('seine.monitors');
    const url = crawler.settings.get('MONITORS_WEBHOOK_URL');
    this.#webhook = typeof url === 'string' && url !== '' ? url : null;
    const fields = coverageFields([...atClose, ...(periodic?.monitors ?? [])]);
    if (fields.length > 0) {
      this.#subscriptions.push(
        crawler.events$.subscribe((event) => {
          if (event.type !== 'item_scraped') return;
          for (const field of fields) {
            const value = fieldValue(event.item, field);
            if (value !== undefined && value !== null && value !== '') this.#fieldCounts.set(field, (this.#fieldCounts.get(field) ?? 0) + 1);
          }
        }),
      );
    }
    // spider_closed's handlers run after the events$ observers: CoreStats has set finish_reason, the dump has not run.
    if (atClose.length > 0) crawler.signals.connect('spider_closed', ({ reason }) => this.#checkAtClose(reason));
  }

  openSpider(): void {
    const periodic = this.#periodic;
    if (periodic === null) return;
    this.#timer = setInterval(() => void this.#checkPeriodic(periodic), periodic.seconds * 1000);
    this.#timer.unref();
  }

  async closeSpider(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  #run(finishReason: string | null): MonitorRun {
    const stats = this.#crawler.stats.getAll();
    return {
      spider: this.#crawler.spider,
      settings: this.#crawler.settings,
      stats,
      finishReason,
      periodic: finishReason === null,
      stat: (key) => {
        const value = Number(stats[key] ?? 0);
        return Number.isFinite(value) ? value : 0;
      },
      fieldCount: (field) => this.#fieldCounts.get(field) ?? 0,
      validationSamples: validationSamplesOf(this.#crawler),
    };
  }

  async #outcomes(monitors: readonly ConfiguredMonitor[], run: MonitorRun): Promise<MonitorOutcome[]> {
    const outcomes: MonitorOutcome[] = [];
    for (const { name, monitor } of monitors) outcomes.push(await runMonitor(name, monitor, run));
    return outcomes;
  }

  #report(run: MonitorRun, outcomes: MonitorOutcome[]): MonitorReport {
    return {
      spider: this.#crawler.spider.name,
      finishReason: run.finishReason,
      checkedAt: new Date().toISOString(),
      passed: outcomes.every((o) => o.ok),
      monitors: outcomes,
      validation: { itemsChecked: run.stat('validation/items_checked'), itemsFailed: run.stat('validation/items_failed'), samples: [...run.validationSamples] },
    };
  }

  async #checkPeriodic(periodic: PeriodicMonitors): Promise<void> {
    const run = this.#run(null);
    const outcomes = await this.#outcomes(periodic.monitors, run);
    const changed = outcomes.filter((o) => o.ok === this.#failing.has(o.monitor));
    for (const o of changed) {
      if (o.ok) {
        this.#failing.delete(o.monitor);
        this.#log.info(`Periodic monitor ${o.monitor} passes again: ${o.message}`);
      } else {
        this.#failing.add(o.monitor);
        this.#crawler.stats.inc('monitors/periodic_failures');
        this.#log.warning(`Periodic monitor ${o.monitor} failed: ${o.message}`);
      }
    }
    if (changed.length === 0 || this.#webhook === null) return;
    const report = this.#report(run, changed);
    const failing = changed.filter((o) => !o.ok).length;
    const headline = `seine: spider ${report.spider}: ${failing > 0 ? `${failing} periodic monitor(s) failed` : 'periodic monitors pass again'}`;
    const delivery = this.#deliver(webhookPayload(report, headline));
    this.#deliveries.add(delivery);
    void delivery.finally(() => this.#deliveries.delete(delivery));
  }

  async #checkAtClose(reason: string): Promise<void> {
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
    const run = this.#run(reason);
    const outcomes = await this.#outcomes(this.#atClose, run);
    const report = this.#report(run, outcomes);
    const failed = outcomes.filter((o) => !o.ok).length;
    this.#crawler.stats.set('monitors/passed', outcomes.length - failed);
    this.#crawler.stats.set(MONITORS_FAILED_STAT, failed);
    const text = reportText(report);
    if (failed > 0) this.#log.warning(text);
    else this.#log.info(text);
    const path = this.#crawler.settings.get('MONITORS_REPORT');
    if (typeof path === 'string' && path !== '') {
      try {
        writeFileSync(resolve(path), JSON.stringify(report, null, 2) + '\n');
      } catch (error) {
        this.#log.error(`Cannot write the monitors' report to ${path}: ${(error as Error).message}`);
      }
    }
    const pending = [...this.#deliveries];
    if (failed > 0 && this.#webhook !== null) {
      pending.push(this.#deliver(webhookPayload(report, `seine: spider ${report.spider} (${reason}): ${failed} of ${outcomes.length} monitors failed`)));
    }
    await Promise.all(pending);
  }

  async #deliver(payload: unknown): Promise<void> {
    const url = this.#webhook!;
    const why = await postWebhook(url, payload);
    if (why !== null) this.#log.warning(`Could not deliver the monitors' report to MONITORS_WEBHOOK_URL (${redactedUrl(url)}) after 3 attempts: ${why}`);
  }
}

/** `author`, or a dotted path into nested objects (`offers.price`) when the item has no key of that name. */
function fieldValue(item: object, field: string): unknown {
  const record = item as Record<string, unknown>;
  if (field in record || !field.includes('.')) return record[field];
  let value: unknown = item;
  for (const key of field.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
