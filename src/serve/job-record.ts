/** One job as the service keeps it in jobs.json, and scrapyd's way of writing its times. */
import type { JobState } from './service-contracts.js';

export interface JobRecord {
  id: string;
  project: string;
  spider: string;
  /** `_version` as scheduled (null: the latest at launch). */
  version: string | null;
  settings: Record<string, string>;
  args: Record<string, string>;
  priority: number;
  /** Order of scheduling: the queue is by priority, then this. */
  seq: number;
  state: JobState;
  pid: number | null;
  start_time: string | null;
  end_time: string | null;
  items: number | null;
  errors: number | null;
  finish_reason: string | null;
}

/** The names a job's files are made of; anything else would let a request name a path. */
export const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** Python's str(datetime.now()) as scrapyd writes start_time/end_time: local time, microseconds. */
export function scrapydTime(date = new Date()): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}000`
  );
}
