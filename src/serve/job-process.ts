/**
 * A job's child process: `seine crawl <spider> -a k=v -s K=V -O <items>.jl`
 * in the version's folder, its standard output and error appended to the
 * job's log file (so a crash's stack lands there too, and the crawl goes on
 * writing if the service dies), and what its log says at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { JobRecord } from './job-record.js';
import type { JobFiles } from './job-files.js';
import { isOurProcessAlive } from './process-alive.js';

export interface LaunchCommand {
  file: string;
  args: string[];
  cwd: string;
}

export function crawlArguments(job: JobRecord, files: JobFiles): string[] {
  // Each job serves its own live dashboard on a free loopback port and says which (the service's pages forward to it);
  // before the job's own settings, so `setting=DASHBOARD_ENABLED=false` turns it off. A seine too old to know these
  // settings warns about them and crawls on.
  const args = ['crawl', job.spider, '-s', 'DASHBOARD_ENABLED=true', '-s', 'DASHBOARD_PORT=0', '-s', `DASHBOARD_PORT_FILE=${files.port}`];
  for (const [name, value] of Object.entries(job.args)) args.push('-a', `${name}=${value}`);
  for (const [name, value] of Object.entries(job.settings)) args.push('-s', `${name}=${value}`);
  args.push('-O', files.items);
  return args;
}

export function launchJob(job: JobRecord, command: LaunchCommand, files: JobFiles): ChildProcess {
  const log = openSync(files.log, 'a');
  try {
    return spawn(command.file, [...command.args, ...crawlArguments(job, files)], {
      cwd: command.cwd,
      stdio: ['ignore', log, log],
      // scrapyd passes the job to the crawl the same way (SCRAPY_JOB…); a spider may read it.
      env: { ...process.env, SEINE_JOB: job.id, SEINE_PROJECT: job.project, SEINE_SPIDER: job.spider },
    });
  } finally {
    closeSync(log);
  }
}

export interface JobOutcome {
  items: number | null;
  errors: number | null;
  finish_reason: string | null;
}

/** The stats dump is the log's last lines: a long crawl's log is not read whole. */
const LOG_TAIL_BYTES = 256 * 1024;

function readTail(path: string, bytes: number): string {
  if (!existsSync(path)) return '';
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Counts an items file's lines a megabyte at a time. */
function countLines(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    let lines = 0;
    let last = 0x0a;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      for (let i = 0; i < read; i++) if (buffer[i] === 0x0a) lines++;
      last = buffer[read - 1]!;
    }
    return last === 0x0a ? lines : lines + 1;
  } finally {
    closeSync(fd);
  }
}

/** From the stats the crawl dumps at close (`'finish_reason': 'finished'`, …), and the items file's lines. */
export function readJobOutcome(files: JobFiles): JobOutcome {
  const log = readTail(files.log, LOG_TAIL_BYTES);
  const at = log.lastIndexOf('Dumping seine stats:');
  const dump = at < 0 ? '' : log.slice(at);
  const stat = (name: string): string | undefined => new RegExp(`'${name}': '?([^',}\\n]*)`).exec(dump)?.[1];
  let items: number | null = null;
  if (existsSync(files.items)) items = countLines(files.items);
  else if (stat('item_scraped_count') !== undefined) items = Number(stat('item_scraped_count'));
  return {
    items,
    errors: at < 0 ? null : Number(stat('log_count/ERROR') ?? 0),
    finish_reason: stat('finish_reason') ?? null,
  };
}

/**
 * Whether `pid` is still this job's crawl: alive, and (where /proc tells)
 * its command line names the job's items file, so a pid the system gave to
 * another program since is not taken for the job.
 */
export function isJobProcessAlive(pid: number, files: JobFiles): boolean {
  return isOurProcessAlive(pid, (args) => args.join('\0').includes(files.items));
}
