import type { ValidationIssue } from './item-schema.js';

/** One item that failed validation, as the monitors' report shows it. */
export interface ValidationSample {
  item: unknown;
  issues: ValidationIssue[];
}

/**
 * The first failures of a crawl, kept for its report. Held per crawler
 * (the key) rather than in stats: stats are flat numbers and strings, and
 * the stats dump would print whole items.
 */
const samplesByCrawler = new WeakMap<object, ValidationSample[]>();

export function recordValidationSample(crawler: object, sample: ValidationSample, limit: number): void {
  let samples = samplesByCrawler.get(crawler);
  if (samples === undefined) samplesByCrawler.set(crawler, (samples = []));
  if (samples.length < limit) samples.push(sample);
}

export function validationSamplesOf(crawler: object): readonly ValidationSample[] {
  return samplesByCrawler.get(crawler) ?? [];
}
