import { DropItem, NotConfigured } from '../contracts/control-flow.js';
import { spiderClassName } from '../contracts/spider-brand.js';
import type { Crawler, StatsCollector } from '../contracts/crawler.js';
import type { ItemPipeline } from '../contracts/components.js';
import type { Item } from '../http/request.js';
import { SettingsError } from '../settings/settings-error.js';
import { itemSchemaOf, toValidationIssues, type ItemSchema, type ValidationIssue } from './item-schema.js';
import { recordValidationSample } from './validation-samples.js';

export type ValidationFailures = 'drop' | 'flag';

/** The field a flagged item carries: field → its failures' messages (spidermon's `_validation`). */
export const VALIDATION_FIELD = '_validation';

/**
 * Checks every item against the spider's `static itemSchema` (first in
 * ITEM_PIPELINES_BASE, order 0: later pipelines and the feeds see checked
 * items). An item that passes is replaced by what the schema parsed (its
 * coercions and defaults; unknown keys as the schema treats them) when it is
 * a plain object; an item of a class of its own is kept, so `item_classes`
 * filters still see its class. An item that fails is dropped
 * (VALIDATION_FAILURES 'drop') or kept with `_validation`
 * ('flag'). Stats: `validation/items_checked`, `validation/items_failed`,
 * `validation/<field>/<issue code>`. Without a schema it is not built.
 */
export class ItemValidationPipeline implements ItemPipeline {
  readonly #failures: ValidationFailures;

  static fromCrawler(crawler: Crawler): ItemValidationPipeline {
    const found = itemSchemaOf(crawler.spider.constructor);
    if (found === null) throw new NotConfigured('the spider has no itemSchema');
    if (found === 'invalid') {
      throw new SettingsError(`${spiderClassName(crawler.spider.constructor)}.itemSchema has no safeParse(value) method: give a zod schema, e.g. static itemSchema = z.object({ title: z.string() })`);
    }
    const failures = crawler.settings.get('VALIDATION_FAILURES');
    if (failures !== 'drop' && failures !== 'flag') {
      throw new SettingsError(`VALIDATION_FAILURES must be 'drop' or 'flag', got ${JSON.stringify(failures)}`);
    }
    return new ItemValidationPipeline(found, crawler.stats, failures, crawler.settings.getInt('VALIDATION_SAMPLES'), crawler);
  }

  constructor(
    readonly schema: ItemSchema,
    readonly stats: StatsCollector,
    failures: ValidationFailures = 'drop',
    readonly sampleLimit = 5,
    /** Where the report finds the samples (validationSamplesOf). */
    readonly samplesKey: object = stats,
  ) {
    this.#failures = failures;
  }

  processItem(item: Item): Item {
    this.stats.inc('validation/items_checked');
    const result = this.schema.safeParse(item);
    if (result.success) return isPlainObject(item) && isPlainObject(result.data) ? result.data : item;
    const issues = toValidationIssues(result.error.issues);
    this.stats.inc('validation/items_failed');
    for (const issue of issues) this.stats.inc(`validation/${issue.field}/${issue.code}`);
    recordValidationSample(this.samplesKey, { item, issues }, this.sampleLimit);
    if (this.#failures === 'drop') throw new DropItem(`Invalid item: ${describeIssues(issues)}`);
    return Object.assign(isPlainObject(item) ? { ...item } : item, { [VALIDATION_FIELD]: flagOf(issues) });
  }
}

/** `author (invalid_type: expected string, received undefined); price (too_small: …)`: one line naming every field. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.field} (${issue.code}: ${oneLine(issue.message)})`).join('; ');
}

function flagOf(issues: readonly ValidationIssue[]): Record<string, string[]> {
  const flag: Record<string, string[]> = {};
  for (const issue of issues) (flag[issue.field] ??= []).push(oneLine(issue.message));
  return flag;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
