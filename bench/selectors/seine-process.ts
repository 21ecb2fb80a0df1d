/**
 * Times one page set for seine in a process of its own.
 *
 * Measured: run in one process after the two saved pages' 46 varied
 * queries, the listing set went from ~1,250 to ~790 pages/s (and the saved
 * pages moved by a quarter depending on what ran before them). V8's type
 * feedback and inline caches remember every query shape the process has
 * seen; a crawl runs one spider's few queries, so each set gets a fresh
 * process and the numbers no longer depend on the order of the sets.
 * (lxml is C and has no such state: parsel_bench.py runs all sets in one
 * process and gives the same numbers in any order.)
 *
 * run.ts starts this file with the same Node flags as itself (see
 * runSeineSet); it prints one JSON line, a SeineProcessResult.
 */

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageSet } from './page-sets.js';
import { loadQueries } from './queries.js';
import type { ExtractedValues, SetResult } from './results.js';
import { errorMessage } from './results.js';
import type { SkipList } from './seine-runner.js';
import { loadSelector, runSeine } from './seine-runner.js';
import type { TimingOptions } from './timing.js';

export interface SeineProcessInput {
  /** The module URL loadSelector found in the parent. */
  engine: string;
  set: { name: string; dir: string; files: string[] };
  timing: TimingOptions;
  detail: boolean;
  valuesPath: string;
}

type SeineProcessResult = { ok: true; set: SetResult; skip: SkipList } | { ok: false; error: string };

const SELF = fileURLToPath(import.meta.url);

/** The parent's Node flags, plus tsx's loader when the parent got TypeScript some other way (jest's swc). */
function childFlags(): string[] {
  const flags = process.execArgv;
  return flags.some((f) => f === 'tsx' || f.startsWith('--import=tsx')) ? flags : [...flags, '--import', 'tsx'];
}

/**
 * A set's process is stopped after this long: an engine stuck in a loop on
 * one query must not hang the benchmark. Generous on purpose: an engine at
 * 10 pages/s still finishes the 1,000-page set's warm-up and three passes
 * well within it.
 */
export const SET_TIMEOUT_MS = 15 * 60_000;

function runOne(input: SeineProcessInput, progress: (line: string) => void): Promise<SeineProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...childFlags(), SELF, JSON.stringify(input)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, SET_TIMEOUT_MS);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      for (const line of chunk.split('\n')) if (line.startsWith('seine: ')) progress(line);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, error: `could not start a process for ${input.set.name}: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) {
        const minutes = SET_TIMEOUT_MS / 60_000;
        resolve({ ok: false, error: `seine's process for ${input.set.name} was stopped after ${minutes} minutes: a query may never finish on one of its pages (its progress lines above show the last step reached)` });
        return;
      }
      try {
        resolve(JSON.parse(stdout) as SeineProcessResult);
      } catch {
        const said = stderr.split('\n').filter((l) => !l.startsWith('seine: ')).join('\n').trim();
        resolve({ ok: false, error: `the process for ${input.set.name} exited with status ${code}${said === '' ? '' : `: ${said}`}` });
      }
    });
  });
}

export interface SeineSetRun {
  set: SetResult;
  skip: SkipList;
  /** Reads back the strings the set's check extracted ({} when the process failed). */
  values: () => ExtractedValues;
}

/** Runs one set in a child process and brings back what it reports; a failing child becomes the set's error. */
export async function runSeineSet(
  engine: string,
  set: PageSet,
  options: TimingOptions & { detail: boolean; valuesPath: string },
  progress: (line: string) => void,
): Promise<SeineSetRun> {
  const { seconds, warmup, repeat, detail, valuesPath } = options;
  const input: SeineProcessInput = { engine, set: { name: set.name, dir: set.dir, files: set.files }, timing: { seconds, warmup, repeat }, detail, valuesPath };
  const out = await runOne(input, progress);
  if (!out.ok) {
    return { set: { name: set.name, pages: set.pages.length, strings: 0, pagesPerSecond: null, runs: [], errors: [out.error] }, skip: {}, values: () => ({}) };
  }
  return { set: out.set, skip: out.skip, values: () => JSON.parse(readFileSync(valuesPath, 'utf8')) as ExtractedValues };
}

async function child(input: SeineProcessInput): Promise<SeineProcessResult> {
  const loaded = await loadSelector([input.engine]);
  if (loaded.Selector === null) return { ok: false, error: loaded.problems.join('; ') };
  const set: PageSet = { ...input.set, pages: input.set.files.map((f) => readFileSync(join(input.set.dir, f), 'utf8')) };
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const run = runSeine(loaded.Selector, [set], loadQueries(), { ...input.timing, detail: input.detail, valuesPath: input.valuesPath }, progress);
  return { ok: true, set: run.result.sets[0]!, skip: run.skip };
}

if (process.argv[1] === SELF) {
  child(JSON.parse(process.argv[2] ?? '{}') as SeineProcessInput)
    .catch((error: unknown): SeineProcessResult => ({ ok: false, error: errorMessage(error) }))
    .then((result) => process.stdout.write(JSON.stringify(result) + '\n'));
}
