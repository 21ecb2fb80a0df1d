/**
 * `npm run bench:selectors`: pages/s of seine's Selector against parsel/lxml
 * on the same pages and the same queries. See docs/performance.md for what
 * is measured and how; `--help` for the options.
 *
 * Engines run one after the other, never side by side: the machines have 2
 * cores and a concurrent run would time the contention (measure-sets.ts
 * says in which order, and why).
 */

import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { agreementLines, compareAll } from './compare.js';
import { staleSavedPages } from './generate-pages.js';
import { LISTING_PAGES } from './listing-page.js';
import { measureSets } from './measure-sets.js';
import type { PageSet } from './page-sets.js';
import { LISTING_SET, listingSet, savedSet } from './page-sets.js';
import { describeQuery, loadQueries } from './queries.js';
import type { BaselineRow, Row } from './report.js';
import { baselineTable, detailTables, headlineTable } from './report.js';
import type { TimingOptions } from './timing.js';

const HELP = `Usage: npm run bench:selectors -- [options]

  --seconds S        minimum length of one measurement (default 2)
  --warmup S         untimed warm-up before the measurements (default 1)
  --repeat N         measurements per page set; the median is reported (default 3)
  --quick            --seconds 0.5 --warmup 0.3 --repeat 1: a smoke run, not for the record
  --listing-pages N  listing pages to generate (default ${LISTING_PAGES}; the target is set on ${LISTING_PAGES})
  --detail           also time parsing alone and each saved-page query alone
  --baseline         also time linkedom and linkedom + xpath on the listing set
  --skip-parsel      seine only
  --engine PATH      load Selector from this module instead of seine's src/
  --json FILE        also write every number measured to FILE
  --keep-pages       keep the generated listing pages and print where they are
`;

function positive(name: string, raw: string | undefined, fallback: number, integer: boolean): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} ${JSON.stringify(raw)} is not a positive ${integer ? 'whole number' : 'number'}; e.g. --${name} ${fallback}`);
  }
  return value;
}

function parse() {
  try {
    return parseArgs({
      options: {
        seconds: { type: 'string' },
        warmup: { type: 'string' },
        repeat: { type: 'string' },
        quick: { type: 'boolean', default: false },
        'listing-pages': { type: 'string' },
        detail: { type: 'boolean', default: false },
        baseline: { type: 'boolean', default: false },
        'skip-parsel': { type: 'boolean', default: false },
        engine: { type: 'string' },
        json: { type: 'string' },
        'keep-pages': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; npm run bench:selectors -- --help lists the options`);
  }
}

function options() {
  const { values } = parse();
  const quick = values.quick;
  const timing: TimingOptions = {
    seconds: positive('seconds', values.seconds, quick ? 0.5 : 2, false),
    warmup: positive('warmup', values.warmup, quick ? 0.3 : 1, false),
    repeat: positive('repeat', values.repeat, quick ? 1 : 3, true),
  };
  return { ...values, timing, listingPages: positive('listing-pages', values['listing-pages'], LISTING_PAGES, true) };
}

function kb(pages: readonly string[]): string {
  const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p), 0) / pages.length;
  return `${(bytes / 1000).toFixed(1)} KB`;
}

function setLabel(set: PageSet): string {
  return set.pages.length > 1 ? `${set.name} (${set.pages.length.toLocaleString('en-US')} × ${kb(set.pages)})` : `${set.name} (${kb(set.pages)})`;
}

/** While seine's engine is being written most queries may fail: the first few per set say enough, --json keeps all. */
const ERRORS_SHOWN = 5;

function sayErrors(say: (line: string) => void, prefix: string, errors: readonly string[]): void {
  for (const e of errors.slice(0, ERRORS_SHOWN)) say(`${prefix}: ${e}`);
  if (errors.length > ERRORS_SHOWN) say(`${prefix}: … and ${errors.length - ERRORS_SHOWN} more (--json FILE records them all)`);
}

const progress = (line: string) => process.stderr.write(`  … ${line}\n`);

async function main(): Promise<void> {
  const opts = options();
  if (opts.help) {
    process.stdout.write(HELP);
    return;
  }
  const queries = loadQueries();
  const stale = staleSavedPages();
  const saved = Object.keys(queries.saved).map((file) => savedSet(file));
  const listing = listingSet(opts.listingPages);
  const sets: PageSet[] = [...saved, listing];
  const out: string[] = [];
  const say = (line = '') => {
    out.push(line);
    console.log(line);
  };
  try {
    const t = opts.timing;
    say(`seine selector benchmark — node ${process.versions.node}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`);
    say(`timing: per page set, ${t.warmup} s warm-up, then the median of ${t.repeat} measurement(s) of ≥ ${t.seconds} s; each pass parses + extracts every page`);
    if (stale.length > 0) say(`NOTE: ${stale.join(', ')} differ from what generate-pages.ts builds now; regenerate them (node --import tsx bench/selectors/generate-pages.ts)`);

    const load = loadavg()[0] ?? 0;
    if (load >= 0.5) say(`NOTE: load average ${load.toFixed(2)} before starting: other processes are busy, so expect noisy numbers.`);

    const measured = await measureSets(sets, listing, { timing: opts.timing, detail: opts.detail, engine: opts.engine, skipParsel: opts['skip-parsel'] }, progress);
    const { seine, parsel } = measured;
    for (const note of measured.notes) say(note);
    const compared = sets.filter((set) => parsel?.sets.some((p) => p.name === set.name) && seine?.sets.some((p) => p.name === set.name));
    const agreements = compareAll(new Map(compared.map((s) => [s.name, s.files])), measured.seineValues, measured.parselValues);
    say();
    if (agreements.length > 0) for (const line of agreementLines(agreements)) say(line);
    else if (parsel !== null) {
      const counts = parsel.sets.map((s) => `${s.name} ${s.strings.toLocaleString('en-US')}`).join(', ');
      say(`Result counts not compared (seine was not measured); parsel extracted: ${counts} strings.`);
    }
    for (const set of seine?.sets ?? []) sayErrors(say, `seine error on ${set.name} (left out of both engines' timing)`, set.errors);
    for (const set of parsel?.sets ?? []) sayErrors(say, `parsel error on ${set.name}`, set.errors);

    const rows: Row[] = sets.map((set) => ({
      label: setLabel(set),
      seine: seine?.sets.find((s) => s.name === set.name),
      parsel: parsel?.sets.find((s) => s.name === set.name),
      disagrees: agreements.some((a) => a.name === set.name && (a.countDifference !== null || a.valueDifference !== null || a.seineStrings !== a.parselStrings)),
    }));
    say();
    say(headlineTable(rows));
    if (rows.some((r) => (r.seine?.errors.length ?? 0) > 0 || r.disagrees)) {
      say('* seine left out queries that threw (parsel skipped them too), or the two extracted different strings: see above.');
    }
    if (opts.detail) {
      say();
      say(detailTables(rows, new Map(Object.entries(queries.saved).map(([file, list]) => [file, list.map(describeQuery)]))));
    }
    let baselines: BaselineRow[] = [];
    if (opts.baseline) {
      const { runBaselines } = await import('./baseline.js');
      baselines = await runBaselines(listing, queries.listing, opts.timing, progress);
      say();
      say(baselineTable(baselines, parsel?.sets.find((s) => s.name === LISTING_SET)?.pagesPerSecond ?? null));
    }
    if (opts.json !== undefined) {
      const record = { timing: opts.timing, node: process.versions.node, cpu: cpus()[0]?.model, seine, parsel, agreements, baselines, report: out };
      writeFileSync(opts.json, JSON.stringify(record, null, 2) + '\n');
    }
  } finally {
    if (opts['keep-pages']) console.log(`listing pages kept in ${listing.dir}`);
    else listing.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:selectors: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
