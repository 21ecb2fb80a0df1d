/**
 * seine's side of the benchmark: the same work as parsel_bench.py, through
 * seine's public Selector API.
 *
 * The Selector is imported at run time (seine's src/, or --engine's module),
 * so that a broken or half-written engine is reported by the benchmark
 * instead of stopping it, and is typed here by the structural contract the
 * benchmark needs; a type-only check at the end keeps that contract in step
 * with the real class. A query that throws is recorded and left out of the
 * timing — for both engines, see `skip` — never fatal.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { PageSet } from './page-sets.js';
import { LISTING_SET } from './page-sets.js';
import type { ListingQueries, Query, QueryFile } from './queries.js';
import { describeQuery, listingFieldLabel, listingLinksLabel } from './queries.js';
import type { EngineResult, ExtractedValues, QueryValues, SetResult } from './results.js';
import { countStrings, errorMessage } from './results.js';
import type { PageWork, TimingOptions } from './timing.js';
import { DETAIL_TIMING, timed } from './timing.js';

export interface SeineSelectorList extends Iterable<SeineSelector> {
  readonly length: number;
  get(): string | null;
  getall(): string[];
}

export interface SeineSelector {
  css(query: string): SeineSelectorList;
  xpath(query: string): SeineSelectorList;
}

export type SeineSelectorClass = new (init: { text: string; type?: 'html' | 'xml' }) => SeineSelector;

/** Where seine's Selector is looked for, in order: the package entry, then the selector module itself. */
export const SEINE_MODULES = [
  new URL('../../src/index.js', import.meta.url).href,
  new URL('../../src/selector/index.js', import.meta.url).href,
];

export type LoadedSelector = { Selector: SeineSelectorClass; from: string } | { Selector: null; problems: string[] };

/** Imports the first module of `specifiers` (URLs, or paths relative to the working directory) that exports a Selector class. */
export async function loadSelector(specifiers: readonly string[] = SEINE_MODULES): Promise<LoadedSelector> {
  const problems: string[] = [];
  for (const spec of specifiers) {
    const url = /^[a-z]+:/i.test(spec) ? spec : pathToFileURL(spec).href;
    try {
      const mod = (await import(url)) as { Selector?: unknown };
      if (typeof mod.Selector === 'function') return { Selector: mod.Selector as SeineSelectorClass, from: url };
      problems.push(`${url} has no Selector export`);
    } catch (error) {
      problems.push(`${url}: ${errorMessage(error)}`);
    }
  }
  return { Selector: null, problems };
}

/** Saved-page query indices and listing field names (or 'links') that threw, to leave out of both engines' timing. */
export type SkipList = Record<string, Array<number | string>>;

export interface SeineRun {
  result: EngineResult;
  /** Reads back the strings extracted in the untimed check (kept on disk while timing). */
  values: () => ExtractedValues;
  skip: SkipList;
}

function run(sel: SeineSelector, query: Query): SeineSelectorList {
  return query.css !== undefined ? sel.css(query.css) : sel.xpath(query.xpath);
}

function savedWork(Selector: SeineSelectorClass, queries: readonly Query[]): PageWork {
  return (html) => {
    const sel = new Selector({ text: html });
    let count = 0;
    for (const q of queries) count += run(sel, q).getall().length;
    return count;
  };
}

/** The extraction a spider callback does: one item per entry, then every link on the page. */
function listingWork(Selector: SeineSelectorClass, listing: ListingQueries, skip: ReadonlySet<string>): PageWork {
  const fields = listing.fields.filter((f) => !skip.has(f.name));
  const links = skip.has('links') ? null : listing.links.css;
  return (html) => {
    const sel = new Selector({ text: html });
    let count = 0;
    for (const entry of sel.css(listing.entries.css)) {
      const item: Record<string, string | null | string[]> = {};
      for (const field of fields) {
        const found = entry.css(field.css);
        if (field.take === 'get') {
          const value = found.get();
          item[field.name] = value;
          if (value !== null) count++;
        } else {
          const values = found.getall();
          item[field.name] = values;
          count += values.length;
        }
      }
    }
    if (links !== null) count += sel.css(links).getall().length;
    return count;
  };
}

function parseOnly(Selector: SeineSelectorClass): PageWork {
  return (html) => {
    new Selector({ text: html });
    return 0;
  };
}

function attempt<T>(what: () => T): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: what() };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

function savedValues(Selector: SeineSelectorClass, html: string, queries: readonly Query[]): QueryValues[] {
  const parsed = attempt(() => new Selector({ text: html }));
  return queries.map((q) => {
    const label = describeQuery(q);
    if (!parsed.ok) return { label, error: `not run: parsing the page failed: ${parsed.error}` };
    const got = attempt(() => run(parsed.value, q).getall());
    return got.ok ? { label, values: got.value } : { label, error: got.error };
  });
}

function listingValues(Selector: SeineSelectorClass, html: string, listing: ListingQueries): QueryValues[] {
  const parsed = attempt(() => new Selector({ text: html }));
  if (!parsed.ok) return [{ label: 'parse', key: 'parse', error: parsed.error }];
  const entries = attempt(() => [...parsed.value.css(listing.entries.css)]);
  if (!entries.ok) return [{ label: `entries (css:${listing.entries.css})`, key: 'entries', error: entries.error }];
  const out: QueryValues[] = [];
  entries.value.forEach((entry, i) => {
    for (const field of listing.fields) {
      const label = listingFieldLabel(i + 1, field);
      const got = attempt(() => {
        const found = entry.css(field.css);
        if (field.take === 'getall') return found.getall();
        const value = found.get();
        return value === null ? [] : [value];
      });
      out.push(got.ok ? { label, values: got.value } : { label, key: field.name, error: got.error });
    }
  });
  const links = attempt(() => parsed.value.css(listing.links.css).getall());
  const label = listingLinksLabel(listing);
  out.push(links.ok ? { label, values: links.value } : { label, key: 'links', error: links.error });
  return out;
}

function timeOrReport(set: SetResult, pages: readonly string[], work: PageWork, options: TimingOptions): void {
  const result = attempt(() => timed(pages, work, options));
  if (result.ok) Object.assign(set, result.value);
  else set.errors.push(`timing failed: ${result.error}`);
}

/** A page set checked and ready to time: what to run, and what was left out. */
interface Plan {
  set: PageSet;
  result: SetResult;
  work: PageWork | null;
  /** --detail, saved pages: each query alone, on a page parsed beforehand (null where it threw). */
  queries: Array<Query | null>;
}

/**
 * Checks every set first (values, errors, what to skip), writes the values to
 * `valuesPath` and lets them go, and only then times, so that the timed heap
 * holds the pages and nothing else: otherwise every major collection would
 * mark the 140,000 listing strings, a cost a crawl does not have. (A probe
 * measured no clear difference, within the ±5 % noise, but keeping them out
 * costs nothing.) parsel_bench.py does the same.
 */
export function runSeine(
  Selector: SeineSelectorClass,
  sets: readonly PageSet[],
  queries: QueryFile,
  options: TimingOptions & { detail: boolean; valuesPath: string },
  progress: (line: string) => void,
): SeineRun {
  const skip: SkipList = {};
  const plans: Plan[] = [];
  let values: ExtractedValues = {};
  for (const set of sets) {
    progress(`seine: ${set.name}${set.pages.length > 1 ? ` (${set.pages.length} pages)` : ''}`);
    const result: SetResult = { name: set.name, pages: set.pages.length, strings: 0, pagesPerSecond: null, runs: [], errors: [] };
    const plan: Plan = { set, result, work: null, queries: [] };
    plans.push(plan);
    if (set.name === LISTING_SET) {
      const pages = set.pages.map((html) => listingValues(Selector, html, queries.listing));
      values[set.name] = pages;
      result.strings = countStrings(pages);
      // First failure per field (or 'links'); 'parse' and 'entries' failures leave nothing to time.
      const failed = new Map<string, string>();
      pages.forEach((page, p) => {
        for (const q of page) {
          if (q.error !== undefined && !failed.has(q.key!)) failed.set(q.key!, `${set.files[p]}: ${q.label}: ${q.error}`);
        }
      });
      result.errors.push(...failed.values());
      skip[set.name] = [...failed.keys()];
      if (!failed.has('parse') && !failed.has('entries')) plan.work = listingWork(Selector, queries.listing, new Set(failed.keys()));
    } else {
      const list = queries.saved[set.name] ?? [];
      const page = savedValues(Selector, set.pages[0]!, list);
      values[set.name] = [page];
      result.strings = countStrings([page]);
      const failed = page.flatMap((q, i) => (q.error === undefined ? [] : [i]));
      result.errors.push(...failed.map((i) => `${page[i]!.label}: ${page[i]!.error!}`));
      skip[set.name] = failed;
      if (failed.length < list.length) plan.work = savedWork(Selector, list.filter((_, i) => !failed.includes(i)));
      plan.queries = list.map((q, i) => (failed.includes(i) ? null : q));
    }
  }
  writeFileSync(options.valuesPath, JSON.stringify(values));
  values = {};

  for (const { set, result, work, queries: perQuery } of plans) {
    if (work === null) continue;
    progress(`seine: timing ${set.name}`);
    timeOrReport(result, set.pages, work, options);
    if (!options.detail || result.pagesPerSecond === null) continue;
    const parse = attempt(() => timed(set.pages, parseOnly(Selector), DETAIL_TIMING));
    if (parse.ok) result.parseOnly = parse.value.pagesPerSecond;
    if (perQuery.length === 0) continue;
    const parsed = new Selector({ text: set.pages[0]! });
    result.perQueryMs = perQuery.map((q) => {
      if (q === null) return null;
      const one = attempt(() => timed(set.pages, () => run(parsed, q).getall().length, DETAIL_TIMING));
      return one.ok ? 1000 / one.value.pagesPerSecond : null;
    });
  }
  const valuesPath = options.valuesPath;
  return {
    result: { engine: 'seine', versions: { node: process.versions.node }, sets: plans.map((p) => p.result) },
    values: () => JSON.parse(readFileSync(valuesPath, 'utf8')) as ExtractedValues,
    skip,
  };
}

/**
 * Type-checks, at no run-time cost, that seine's real Selector still fits the
 * contract above: if its API drifts, `tsc` fails here rather than the
 * benchmark at run time.
 */
type RealSelectorFits = typeof import('../../src/index.js').Selector extends SeineSelectorClass ? true : false;
export const REAL_SELECTOR_FITS: RealSelectorFits = true;
