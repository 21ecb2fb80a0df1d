/**
 * The job book: pending jobs (by priority, then order), running ones (at
 * most max_proc child processes) and the finished history, in
 * `<dir>/jobs.json`, rewritten atomically (jobs-file.ts) on every change,
 * so a service killed at any moment loses no pending job.
 *
 * After a restart, a job the file says was running is checked: if its
 * process is still alive (the service was killed, the crawl was not) it is
 * adopted — reported running, its pid watched, finished when it exits; if
 * the process is gone, it is reported finished, with the finish reason its
 * log's final stats give, or 'lost: the service stopped while it ran'.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { JobsView, JobState, JobSummary, ProjectVersionStore } from './service-contracts.js';
import type { ServeConfig } from './serve-config.js';
import { jobFiles, jobUrls, prepareJobFiles, pruneJobFiles, readDashboardPort } from './job-files.js';
import { isJobProcessAlive, launchJob, readJobOutcome } from './job-process.js';
import { scrapydTime, type JobRecord } from './job-record.js';
import { readJobsFile, writeJobsFile } from './jobs-file.js';

/** How long a cancelled crawl has to close before it is killed. */
const CANCEL_GRACE_MS = 30_000;
const ADOPTED_POLL_MS = 1_000;
export const LOST_REASON = 'lost: the service stopped while it ran';

export interface ScheduleRequest {
  project: string;
  spider: string;
  version: string | null;
  id?: string;
  priority: number;
  settings: Record<string, string>;
  args: Record<string, string>;
}

export class JobBook implements JobsView {
  private jobs: JobRecord[] = [];
  private seq = 0;
  private readonly children = new Map<string, ChildProcess>();
  private readonly cancelled = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly listeners = new Set<(job: JobSummary) => void>();
  private readonly file: string;
  /** True until resume(): loading a saved book must not launch anything yet; again after close(). */
  private closed = true;

  constructor(
    private readonly config: ServeConfig,
    private readonly store: ProjectVersionStore,
  ) {
    this.file = join(config.dir, 'jobs.json');
    mkdirSync(config.dir, { recursive: true });
    this.load();
  }

  list(): JobSummary[] {
    const order: Record<JobState, number> = { running: 0, pending: 1, finished: 2 };
    return [...this.jobs].sort((a, b) => order[a.state] - order[b.state] || this.compare(a, b)).map((job) => this.summary(job));
  }

  get(id: string): JobSummary | undefined {
    const job = this.jobs.find((candidate) => candidate.id === id);
    return job === undefined ? undefined : this.summary(job);
  }

  records(state: JobState, project?: string): readonly JobRecord[] {
    const jobs = this.jobs.filter((job) => job.state === state && (project === undefined || job.project === project));
    return state === 'pending' ? jobs.sort((a, b) => this.compare(a, b)) : jobs;
  }

  onChange(listener: (job: JobSummary) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  schedule(request: ScheduleRequest): string {
    const id = request.id ?? randomUUID().replaceAll('-', '');
    const job: JobRecord = {
      id, project: request.project, spider: request.spider, version: request.version,
      settings: request.settings, args: request.args, priority: request.priority, seq: ++this.seq,
      state: 'pending', pid: null, start_time: null, end_time: null, items: null, errors: null, finish_reason: null,
    };
    this.jobs.push(job);
    this.changed(job);
    this.startNext();
    return id;
  }

  /** scrapyd's cancel: a pending job is removed; a running one is sent `signal` (INT by default), then KILL after a grace. */
  async cancel(project: string, id: string, signal: NodeJS.Signals | number = 'SIGINT'): Promise<JobState | null> {
    const job = this.jobs.find((candidate) => candidate.id === id && candidate.project === project && candidate.state !== 'finished');
    if (job === undefined) return null;
    if (job.state === 'pending') {
      this.jobs.splice(this.jobs.indexOf(job), 1);
      this.persist();
      this.emit({ ...job, state: 'finished', finish_reason: 'cancelled' });
      return 'pending';
    }
    this.cancelled.add(job.id);
    this.signal(job, signal);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (job.state === 'running') this.signal(job, 'SIGKILL');
    }, CANCEL_GRACE_MS);
    timer.unref();
    this.timers.add(timer);
    return 'running';
  }

  /** Stops launching; running crawls go on (a restart adopts them). */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    // The book lets go of its crawls as a killed service would: what they do now is for the next start to find.
    for (const child of this.children.values()) {
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      child.unref();
    }
    this.children.clear();
    this.persist();
  }

  private signal(job: JobRecord, signal: NodeJS.Signals | number): void {
    try {
      if (job.pid !== null) process.kill(job.pid, signal);
    } catch {
      // Already gone: its exit (or the adoption poll) finishes it.
    }
  }

  private compare(a: JobRecord, b: JobRecord): number {
    return b.priority - a.priority || a.seq - b.seq;
  }

  private startNext(): void {
    while (!this.closed) {
      const running = this.jobs.filter((job) => job.state === 'running').length;
      const next = this.records('pending')[0];
      if (running >= this.config.max_proc || next === undefined) return;
      this.start(next);
    }
  }

  private start(job: JobRecord): void {
    const files = jobFiles(this.config.dir, job);
    job.state = 'running';
    job.start_time = scrapydTime();
    let child: ChildProcess;
    try {
      prepareJobFiles(files);
      // A job that named no version runs the latest at its start: the pages say which one that was.
      job.version ??= this.store.versions(job.project).at(-1) ?? null;
      child = launchJob(job, this.store.command(job.project, job.version ?? undefined), files);
    } catch (error) {
      this.finish(job, `could not start: ${(error as Error).message}`);
      return;
    }
    job.pid = child.pid ?? null;
    this.children.set(job.id, child);
    child.once('error', (error) => this.finish(job, `could not start: ${error.message}`));
    child.once('exit', (code, signal) => this.finish(job, signal !== null ? `killed by ${signal}` : code !== 0 ? `exit status ${code}` : null));
    this.changed(job);
  }

  private finish(job: JobRecord, fallbackReason: string | null): void {
    if (job.state === 'finished') return;
    this.children.delete(job.id);
    rmSync(jobFiles(this.config.dir, job).port, { force: true });
    const outcome = readJobOutcome(jobFiles(this.config.dir, job));
    job.state = 'finished';
    job.end_time = scrapydTime();
    job.items = outcome.items;
    job.errors = outcome.errors;
    job.finish_reason = outcome.finish_reason ?? (this.cancelled.delete(job.id) ? 'cancelled' : fallbackReason);
    this.cancelled.delete(job.id);
    this.retain(job);
    this.changed(job);
    this.startNext();
  }

  private retain(job: JobRecord): void {
    const running = new Set(this.records('running', job.project).filter((other) => other.spider === job.spider).map((other) => other.id));
    pruneJobFiles(this.config.dir, job, this.config.jobs_to_keep, running);
    const finished = this.records('finished');
    const excess = finished.length - this.config.finished_to_keep;
    if (excess > 0) {
      const dropped = new Set(finished.slice(0, excess));
      this.jobs = this.jobs.filter((other) => !dropped.has(other));
    }
  }

  private adopt(job: JobRecord): void {
    const files = jobFiles(this.config.dir, job);
    const poll = setInterval(() => {
      if (job.state !== 'running') clearInterval(poll);
      else if (job.pid === null || !isJobProcessAlive(job.pid, files)) {
        clearInterval(poll);
        this.timers.delete(poll);
        this.finish(job, LOST_REASON);
      }
    }, ADOPTED_POLL_MS);
    poll.unref();
    this.timers.add(poll as unknown as NodeJS.Timeout);
  }

  private load(): void {
    const saved = readJobsFile(this.file);
    if (saved === null) return;
    this.jobs = saved.jobs;
    this.seq = saved.seq;
    for (const job of this.jobs.filter((candidate) => candidate.state === 'running')) {
      if (job.pid !== null && isJobProcessAlive(job.pid, jobFiles(this.config.dir, job))) this.adopt(job);
      else this.finish(job, LOST_REASON);
    }
    this.persist();
  }

  /** Starts the pending jobs a restart found. */
  resume(): void {
    this.closed = false;
    this.startNext();
  }

  private persist(): void {
    writeJobsFile(this.file, { seq: this.seq, jobs: this.jobs });
  }

  private changed(job: JobRecord): void {
    this.persist();
    this.emit(job);
  }

  private emit(job: JobRecord): void {
    const summary = this.summary(job);
    for (const listener of this.listeners) listener(summary);
  }

  private summary(job: JobRecord): JobSummary {
    const urls = job.state === 'pending' ? { log_url: null, items_url: null } : jobUrls(this.config.dir, job);
    // Read when asked: the crawl writes the file a moment after it starts.
    const dashboardPort = job.state === 'running' ? readDashboardPort(jobFiles(this.config.dir, job)) : null;
    return {
      id: job.id, project: job.project, spider: job.spider, version: job.version, state: job.state, pid: job.pid,
      start_time: job.start_time, end_time: job.end_time, ...urls,
      items: job.items, errors: job.errors, finish_reason: job.finish_reason, dashboard_port: dashboardPort,
    };
  }
}
