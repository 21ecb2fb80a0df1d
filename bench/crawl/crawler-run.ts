/**
 * Runs one crawler as a process of its own and measures it: wall time from
 * start to exit, CPU time (user + system) and peak RSS of that process, and
 * what it reports in its stats dump.
 *
 * CPU and peak RSS come from GNU time (`/usr/bin/time -f …`), which reads
 * them from wait4()'s rusage when the process ends: exact, with no sampling
 * gap at the end of the run. Without GNU time they are sampled from
 * /proc/<pid>/stat and /proc/<pid>/status (VmHWM) every 50 ms, which can
 * miss the last 50 ms of CPU; the report says which was used.
 */

import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export const GNU_TIME = '/usr/bin/time';

export interface CrawlerCommand {
  crawler: string;
  command: string;
  args: string[];
  cwd: string;
  /** The JSON Lines feed the crawler writes (items are counted from it). */
  feed: string;
  /** Where the crawler's log (stderr) goes. */
  log: string;
  env?: NodeJS.ProcessEnv;
}

export interface CrawlerMeasurement {
  crawler: string;
  exitCode: number | null;
  wallSeconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  /** 'rusage' (GNU time) or 'proc' (sampled). */
  source: 'rusage' | 'proc';
  /** Lines in the feed. */
  feedItems: number;
  /** The crawler's own stats, from its stats dump (numbers only). */
  stats: Record<string, number>;
}

/** The numeric entries of a Scrapy-style stats dump (`{'key': value, …}`) in a log. */
export function parseStatsDump(log: string): Record<string, number> {
  const stats: Record<string, number> = {};
  const start = log.lastIndexOf('stats:\n{');
  if (start < 0) return stats;
  for (const match of log.slice(start).matchAll(/^[ {]'([^']+)': (-?\d+(?:\.\d+)?),?}?$/gm)) {
    stats[match[1]!] = Number(match[2]);
  }
  return stats;
}

/** `%e %U %S %M` as GNU time writes it: elapsed s, user s, system s, max RSS KiB. */
export function parseGnuTime(text: string): { cpuSeconds: number; peakRssBytes: number } | null {
  const line = text.trim().split('\n').at(-1) ?? '';
  const fields = line.split(' ').map(Number);
  if (fields.length !== 4 || fields.some((f) => !Number.isFinite(f))) return null;
  return { cpuSeconds: fields[1]! + fields[2]!, peakRssBytes: fields[3]! * 1024 };
}

function countLines(path: string): number {
  if (!existsSync(path)) return 0;
  const text = readFileSync(path, 'utf8');
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function procSample(pid: number): { cpuTicks: number; hwmKiB: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    return { cpuTicks: Number(fields[11]) + Number(fields[12]), hwmKiB: Number(hwm?.[1] ?? 0) };
  } catch {
    return null;
  }
}

/** Linux's USER_HZ: /proc times are in these ticks. */
const TICKS_PER_SECOND = 100;

export async function runCrawler(cmd: CrawlerCommand, timeoutMs: number): Promise<CrawlerMeasurement> {
  const useTime = existsSync(GNU_TIME);
  const timeFile = `${cmd.log}.time`;
  rmSync(timeFile, { force: true });
  rmSync(cmd.feed, { force: true });
  const [file, args] = useTime ? [GNU_TIME, ['-f', '%e %U %S %M', '-o', timeFile, cmd.command, ...cmd.args]] : [cmd.command, cmd.args];
  const logFd = openSync(cmd.log, 'w');
  const started = performance.now();
  const child = spawn(file, args, { cwd: cmd.cwd, env: cmd.env ?? process.env, stdio: ['ignore', logFd, logFd] });
  let last: { cpuTicks: number; hwmKiB: number } | null = null;
  const sampler = useTime ? null : setInterval(() => (last = procSample(child.pid!) ?? last), 50);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  }).finally(() => {
    clearTimeout(timer);
    if (sampler !== null) clearInterval(sampler);
    closeSync(logFd);
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const log = readFileSync(cmd.log, 'utf8');
  let cpuSeconds = NaN;
  let peakRssBytes = NaN;
  if (useTime) {
    const parsed = existsSync(timeFile) ? parseGnuTime(readFileSync(timeFile, 'utf8')) : null;
    if (parsed !== null) ({ cpuSeconds, peakRssBytes } = parsed);
  } else if (last !== null) {
    const sample: { cpuTicks: number; hwmKiB: number } = last;
    cpuSeconds = sample.cpuTicks / TICKS_PER_SECOND;
    peakRssBytes = sample.hwmKiB * 1024;
  }
  return {
    crawler: cmd.crawler,
    exitCode,
    wallSeconds,
    cpuSeconds,
    peakRssBytes,
    source: useTime ? 'rusage' : 'proc',
    feedItems: countLines(cmd.feed),
    stats: parseStatsDump(log),
  };
}
