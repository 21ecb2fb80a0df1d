/**
 * `<dir>/jobs.json`: the job book on disk. Written to a temporary file and
 * renamed over the old one, so a service killed mid-write leaves the old
 * book or the new one, never half of one.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { JobRecord } from './job-record.js';
import { ServeConfigError } from './serve-errors.js';

export interface SavedJobs {
  seq: number;
  jobs: JobRecord[];
}

export function readJobsFile(file: string): SavedJobs | null {
  if (!existsSync(file)) return null;
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedJobs;
    if (!Array.isArray(saved.jobs) || typeof saved.seq !== 'number') throw new Error('no jobs list');
    return saved;
  } catch (error) {
    throw new ServeConfigError(`${file} cannot be read (${(error as Error).message}): move it away to start with no jobs`, { cause: error });
  }
}

export function writeJobsFile(file: string, saved: SavedJobs): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(saved));
  renameSync(temporary, file);
}
