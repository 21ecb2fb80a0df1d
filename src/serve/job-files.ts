/**
 * Where a job's log and items live in the service folder
 * (`logs/<project>/<spider>/<job>.log`, `items/<project>/<spider>/<job>.jl`,
 * scrapyd's layout), their URLs, and the retention rule: the newest
 * `jobs_to_keep` jobs' files per spider, as scrapyd's jobs_to_keep.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface JobFiles {
  log: string;
  items: string;
  /** Where the job's own dashboard writes the port it bound (DASHBOARD_PORT_FILE). */
  port: string;
}

export function jobFiles(dir: string, job: { project: string; spider: string; id: string }): JobFiles {
  return {
    log: join(dir, 'logs', job.project, job.spider, `${job.id}.log`),
    items: join(dir, 'items', job.project, job.spider, `${job.id}.jl`),
    port: join(dir, 'run', `${job.project}.${job.id}.port`),
  };
}

export function prepareJobFiles(files: JobFiles): void {
  for (const file of [files.log, files.items, files.port]) mkdirSync(join(file, '..'), { recursive: true });
}

/** scrapyd answers null for a file that does not exist (not written yet, or removed by retention). */
export function jobUrls(dir: string, job: { project: string; spider: string; id: string }): { log_url: string | null; items_url: string | null } {
  const files = jobFiles(dir, job);
  const path = (kind: string, ext: string): string => `/${kind}/${encodeURIComponent(job.project)}/${encodeURIComponent(job.spider)}/${encodeURIComponent(job.id)}.${ext}`;
  return {
    log_url: existsSync(files.log) ? path('logs', 'log') : null,
    items_url: existsSync(files.items) ? path('items', 'jl') : null,
  };
}

/** Removes all but the newest `keep` files of one spider's folder (oldest by modification time), except `protect`. */
export function pruneSpiderFolder(folder: string, keep: number, protect: ReadonlySet<string>): void {
  if (!existsSync(folder)) return;
  const files = readdirSync(folder)
    .map((name) => ({ name, time: statSync(join(folder, name)).mtimeMs }))
    .filter((file) => !protect.has(file.name))
    .sort((a, b) => b.time - a.time || b.name.localeCompare(a.name));
  for (const file of files.slice(keep)) rmSync(join(folder, file.name), { force: true });
}

export function pruneJobFiles(dir: string, job: { project: string; spider: string }, keep: number, running: ReadonlySet<string>): void {
  for (const [kind, ext] of [['logs', 'log'], ['items', 'jl']] as const) {
    pruneSpiderFolder(join(dir, kind, job.project, job.spider), keep, new Set([...running].map((id) => `${id}.${ext}`)));
  }
}

/** The port the running job's dashboard listens on, once it has written it. */
export function readDashboardPort(files: JobFiles): number | null {
  try {
    const port = Number(readFileSync(files.port, 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}
