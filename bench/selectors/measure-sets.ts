/**
 * Measures every page set with both engines, alternating set by set: seine
 * on a set (in its own process), then parsel on the same set, then the next
 * set. These machines are shared, and their speed drifts by tens of percent
 * over minutes (measured: parsel's listing rate 700 pages/s in one run, 459
 * in another with a neighbour busy); measuring both engines on a set
 * back to back keeps that drift out of the ratio as far as possible.
 */

import { join } from 'node:path';
import { SAVED_PAGES_DIR } from './generate-pages.js';
import type { ListingSet, PageSet } from './page-sets.js';
import { ENABLE_PARSEL_HINT, PYTHON, parselDumpPath, parselUnavailable, runParsel } from './parsel-runner.js';
import { QUERIES_PATH } from './queries.js';
import type { EngineResult, ExtractedValues } from './results.js';
import { errorMessage } from './results.js';
import { runSeineSet } from './seine-process.js';
import type { SkipList } from './seine-runner.js';
import { SEINE_MODULES, loadSelector } from './seine-runner.js';
import type { TimingOptions } from './timing.js';

export interface MeasureOptions {
  timing: TimingOptions;
  detail: boolean;
  /** A module to load Selector from instead of seine's src/. */
  engine?: string;
  skipParsel: boolean;
}

export interface Measured {
  /** null when no Selector could be loaded. */
  seine: EngineResult | null;
  /** null when parsel was skipped, missing or failed. */
  parsel: EngineResult | null;
  seineValues: ExtractedValues;
  parselValues: ExtractedValues;
  /** Lines for the report: what could not be run and why, versions. */
  notes: string[];
}

export async function measureSets(sets: readonly PageSet[], listing: ListingSet, options: MeasureOptions, progress: (line: string) => void): Promise<Measured> {
  const notes: string[] = [];
  const loaded = await loadSelector(options.engine !== undefined ? [options.engine] : SEINE_MODULES);
  const seine: EngineResult | null = loaded.Selector === null ? null : { engine: 'seine', versions: { node: process.versions.node }, sets: [] };
  if (loaded.Selector === null) {
    notes.push('seine: no Selector could be loaded, so seine was not measured:', ...loaded.problems.map((p) => `  ${p}`));
  }
  const unavailable = options.skipParsel ? 'skipped (--skip-parsel)' : parselUnavailable();
  let parsel: EngineResult | null = null;
  if (unavailable !== null) {
    notes.push(`parsel: comparison skipped: ${unavailable}. To enable it: ${ENABLE_PARSEL_HINT} (it must import in ${PYTHON}; SEINE_BENCH_PYTHON picks another interpreter).`);
  }
  let parselFailed = false;
  const seineValues: ExtractedValues = {};
  const parselValues: ExtractedValues = {};

  for (const set of sets) {
    let skip: SkipList = {};
    if (seine !== null && loaded.Selector !== null) {
      const run = await runSeineSet(loaded.from, set, { ...options.timing, detail: options.detail, valuesPath: join(listing.dir, `seine-values-${seine.sets.length}.json`) }, progress);
      seine.sets.push(run.set);
      Object.assign(seineValues, run.values());
      skip = run.skip;
    }
    if (unavailable !== null || parselFailed) continue;
    try {
      const run = await runParsel(
        {
          queriesPath: QUERIES_PATH,
          savedDir: SAVED_PAGES_DIR,
          listing,
          timing: options.timing,
          skip,
          detail: options.detail,
          dumpPath: parselDumpPath(listing, String(parsel?.sets.length ?? 0)),
          only: set.name,
        },
        progress,
      );
      parsel ??= { ...run.result, sets: [] };
      parsel.sets.push(...run.result.sets);
      Object.assign(parselValues, run.values);
    } catch (error) {
      notes.push(`parsel: the comparison failed on ${set.name}, so the sets from there on are not compared: ${errorMessage(error)}`);
      parselFailed = true;
    }
  }
  if (parsel !== null) {
    const v = parsel.versions;
    notes.push(`parsel ${v['parsel']} / lxml ${v['lxml']} / libxml2 ${v['libxml2']} on Python ${v['python']} (${PYTHON})`);
  }
  return { seine, parsel, seineValues, parselValues, notes };
}
