/**
 * Runs parsel_bench.py with the system Python (the one Debian's
 * python3-parsel / python3-scrapy packages install into; a pyenv or venv
 * python3 on PATH usually lacks them) and reads back its JSON.
 */

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListingSet } from './page-sets.js';
import type { EngineResult, ExtractedValues } from './results.js';
import type { SkipList } from './seine-runner.js';
import type { TimingOptions } from './timing.js';

export const PYTHON = process.env['SEINE_BENCH_PYTHON'] ?? '/usr/bin/python3';
export const PARSEL_BENCH = fileURLToPath(new URL('./parsel_bench.py', import.meta.url));
export const ENABLE_PARSEL_HINT = 'apt-get install -y python3-scrapy (or python3-parsel)';

/** null when `PYTHON -c 'import parsel'` works, else why it does not. */
export function parselUnavailable(): string | null {
  const probe = spawnSync(PYTHON, ['-c', 'import parsel, lxml'], { encoding: 'utf8' });
  if (probe.error !== undefined) return `${PYTHON} could not be run (${probe.error.message})`;
  if (probe.status !== 0) {
    const lastLine = probe.stderr.trim().split('\n').pop() ?? '';
    return `${PYTHON} -c 'import parsel, lxml' failed: ${lastLine}`;
  }
  return null;
}

export interface ParselRun {
  result: EngineResult;
  values: ExtractedValues;
}

export interface ParselOptions {
  queriesPath: string;
  savedDir: string;
  listing: ListingSet;
  timing: TimingOptions;
  skip: SkipList;
  detail: boolean;
  /** Where the extracted strings are written for the agreement check. */
  dumpPath: string;
  /** Run just this set (run.ts alternates seine and parsel set by set). */
  only?: string;
}

export function runParsel(options: ParselOptions, progress: (line: string) => void): Promise<ParselRun> {
  const args = [
    PARSEL_BENCH,
    '--queries', options.queriesPath,
    '--saved-dir', options.savedDir,
    '--listing-dir', options.listing.dir,
    '--listing-files', options.listing.listFile,
    '--seconds', String(options.timing.seconds),
    '--warmup', String(options.timing.warmup),
    '--repeat', String(options.timing.repeat),
    '--skip', JSON.stringify(options.skip),
    '--dump', options.dumpPath,
    ...(options.detail ? ['--detail'] : []),
    ...(options.only !== undefined ? ['--only', options.only] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      for (const line of chunk.split('\n')) if (line.startsWith('parsel: ')) progress(line);
    });
    child.on('error', (error) => reject(new Error(`could not start ${PYTHON} ${PARSEL_BENCH}: ${error.message}`)));
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`${PYTHON} ${PARSEL_BENCH} exited with status ${code}:\n${stderr.trim()}`));
        return;
      }
      try {
        const result = JSON.parse(stdout) as EngineResult;
        const values = JSON.parse(readFileSync(options.dumpPath, 'utf8')) as ExtractedValues;
        resolve({ result, values });
      } catch (error) {
        reject(new Error(`parsel_bench.py printed something that is not its JSON result: ${String(error)}\n${stdout.slice(0, 500)}`));
      }
    });
  });
}

export function parselDumpPath(listing: ListingSet, setName = 'all'): string {
  return join(listing.dir, `parsel-values-${setName}.json`);
}
