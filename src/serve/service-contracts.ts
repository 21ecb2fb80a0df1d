/**
 * What the parts of `seine serve` promise each other: the version store
 * (deployed projects, each version unpacked with its own dependencies), the
 * job book (scheduled, running and finished crawls), and what the dashboard
 * reads of them. One file of types, so the API, the store and the pages can
 * be written apart and wired in serve.ts.
 */

/** A deployed project's versions, oldest first (scrapyd's listversions order). */
export interface ProjectVersionStore {
  /**
   * Unpacks a tarball made by `seine deploy` as `version` of `project`,
   * installs its dependencies into that version's folder (`npm ci`, preferring
   * the local cache) and lists its spiders. Replaces an existing version of
   * that name. Rejects with a one-line Error the API can answer with.
   */
  add(project: string, version: string, tarball: Buffer): Promise<{ spiders: string[] }>;
  projects(): string[];
  versions(project: string): string[];
  /** The spiders of a version (default: the latest). */
  spiders(project: string, version?: string): Promise<string[]>;
  /** Deletes one version, or the whole project when `version` is undefined. Rejects when it does not exist. */
  remove(project: string, version?: string): Promise<void>;
  /**
   * How to run a `seine` command (`crawl <spider> …`) in a version (default:
   * the latest): the executable, its first arguments, and the folder to run in,
   * so the version runs with the seine its lockfile pins.
   */
  command(project: string, version?: string): { file: string; args: string[]; cwd: string };
}

export type JobState = 'pending' | 'running' | 'finished';

/** One job, as listjobs.json answers it (plus what the dashboard shows). */
export interface JobSummary {
  id: string;
  project: string;
  spider: string;
  version: string | null;
  state: JobState;
  pid: number | null;
  /** ISO-like local times as scrapyd writes them ('2026-12-07 17:05:18.123456'), null until reached. */
  start_time: string | null;
  end_time: string | null;
  /** Relative URLs of the job's log and items. */
  log_url: string | null;
  items_url: string | null;
  /** From the job's stats once known. */
  items: number | null;
  errors: number | null;
  finish_reason: string | null;
  /** When the job runs with a live dashboard: the loopback port of its own dashboard server. */
  dashboard_port: number | null;
}

/** What the service's pages read and do. */
export interface JobsView {
  list(): JobSummary[];
  get(id: string): JobSummary | undefined;
  /** Called with the job whenever one changes state. Returns an unsubscribe function. */
  onChange(listener: (job: JobSummary) => void): () => void;
  /** scrapyd's cancel: a pending job is removed, a running one is sent SIGINT as scrapyd does (then SIGKILL after 30 s). */
  cancel(project: string, id: string): Promise<JobState | null>;
}
