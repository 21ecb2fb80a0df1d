/**
 * scrapyd's JSON API (1.5): the same paths, methods, parameters and answers.
 * Each endpoint returns the answer's own fields; the server adds
 * `"status": "ok"` and `"node_name"`. A refused request throws ApiError:
 * scrapyd answers those with HTTP 200 and `{"status": "error", "message"}`.
 */
import { hostname } from 'node:os';
import { constants } from 'node:os';
import type { ProjectVersionStore } from './service-contracts.js';
import type { JobBook } from './job-book.js';
import { jobUrls } from './job-files.js';
import { SAFE_NAME } from './job-record.js';
import { textOf, type Params } from './request-params.js';

export class ApiError extends Error {}

export interface ApiContext {
  dir: string;
  store: ProjectVersionStore;
  book: JobBook;
}

type Handler = (params: Params, context: ApiContext) => Promise<Record<string, unknown>> | Record<string, unknown>;

export interface Endpoint {
  method: 'GET' | 'POST';
  handle: Handler;
}

export const NODE_NAME = hostname();

function required(params: Params, name: string): string {
  const value = textOf(params.get(name)?.[0]);
  if (value === undefined) throw new ApiError(`'${name}' parameter is required`);
  return value;
}

function optional(params: Params, name: string): string | undefined {
  return textOf(params.get(name)?.[0]);
}

function safeName(what: string, value: string): string {
  if (!SAFE_NAME.test(value)) throw new ApiError(`${what} '${value}' is invalid: use letters, digits, '_', '.' and '-' (it names files)`);
  return value;
}

function requireProject(context: ApiContext, project: string): void {
  if (!context.store.projects().includes(project)) throw new ApiError(`project '${project}' not found`);
}

function requireVersion(context: ApiContext, project: string, version: string | undefined): void {
  if (version !== undefined && version !== '' && !context.store.versions(project).includes(version)) throw new ApiError(`version '${version}' not found`);
}

function signalOf(text: string): NodeJS.Signals | number {
  if (/^\d+$/.test(text)) return Number(text);
  const name = `SIG${text.toUpperCase().replace(/^SIG/, '')}` as NodeJS.Signals;
  if (!(name in constants.signals)) throw new ApiError(`signal is invalid: '${text}'`);
  return name;
}

const RESERVED = new Set(['project', 'spider', '_version', 'jobid', 'priority', 'setting']);

export const ENDPOINTS: Record<string, Endpoint> = {
  'daemonstatus.json': {
    method: 'GET',
    handle: (_params, { book }) => ({
      pending: book.records('pending').length,
      running: book.records('running').length,
      finished: book.records('finished').length,
    }),
  },
  'addversion.json': {
    method: 'POST',
    async handle(params, { store }) {
      const project = safeName('project', required(params, 'project'));
      const version = safeName('version', required(params, 'version'));
      const egg = params.get('egg')?.[0];
      if (egg === undefined) throw new ApiError("'egg' parameter is required");
      if (typeof egg === 'string') throw new ApiError('egg is not a file (if using curl, use egg=@path not egg=path)');
      try {
        const { spiders } = await store.add(project, version, egg);
        return { project, version, spiders: spiders.length };
      } catch (error) {
        throw new ApiError((error as Error).message);
      }
    },
  },
  'schedule.json': {
    method: 'POST',
    async handle(params, context) {
      const project = required(params, 'project');
      const spider = required(params, 'spider');
      const version = optional(params, '_version');
      requireProject(context, project);
      requireVersion(context, project, version);
      const spiders = await context.store.spiders(project, version || undefined);
      if (!spiders.includes(spider)) throw new ApiError(`spider '${spider}' not found`);
      safeName('spider', spider);
      const jobid = optional(params, 'jobid');
      if (jobid !== undefined) {
        safeName('jobid', jobid);
        if (context.book.get(jobid) !== undefined) throw new ApiError(`jobid '${jobid}' is taken: choose another`);
      }
      const priorityText = optional(params, 'priority') ?? '0';
      const priority = Number(priorityText);
      if (priorityText.trim() === '' || !Number.isFinite(priority)) throw new ApiError(`priority is invalid: could not convert string to float: '${priorityText}'`);
      const settings: Record<string, string> = {};
      for (const value of params.get('setting') ?? []) {
        const text = textOf(value)!;
        const equals = text.indexOf('=');
        if (equals <= 0) throw new ApiError(`setting is invalid: '${text}' (expected NAME=VALUE)`);
        settings[text.slice(0, equals)] = text.slice(equals + 1);
      }
      const args: Record<string, string> = {};
      // scrapyd: "When such parameters are set multiple times, only the first value is sent to the spider."
      for (const [name, values] of params) if (!RESERVED.has(name)) args[name] = textOf(values[0])!;
      const id = context.book.schedule({ project, spider, version: version || null, id: jobid, priority, settings, args });
      return { jobid: id };
    },
  },
  'status.json': {
    method: 'GET',
    handle(params, context) {
      const job = required(params, 'job');
      const project = optional(params, 'project');
      if (project !== undefined) requireProject(context, project);
      const found = context.book.get(job);
      return { currstate: found !== undefined && (project === undefined || found.project === project) ? found.state : null };
    },
  },
  'cancel.json': {
    method: 'POST',
    async handle(params, context) {
      const project = required(params, 'project');
      const job = required(params, 'job');
      const signal = signalOf(optional(params, 'signal') ?? 'INT');
      requireProject(context, project);
      return { prevstate: await context.book.cancel(project, job, signal) };
    },
  },
  'listprojects.json': { method: 'GET', handle: (_params, { store }) => ({ projects: store.projects() }) },
  'listversions.json': {
    method: 'GET',
    handle(params, { store }) {
      const project = required(params, 'project');
      return { versions: store.projects().includes(project) ? store.versions(project) : [] };
    },
  },
  'listspiders.json': {
    method: 'GET',
    async handle(params, context) {
      const project = required(params, 'project');
      const version = optional(params, '_version');
      requireProject(context, project);
      requireVersion(context, project, version);
      return { spiders: await context.store.spiders(project, version || undefined) };
    },
  },
  'listjobs.json': {
    method: 'GET',
    handle(params, context) {
      const project = optional(params, 'project');
      if (project !== undefined) requireProject(context, project);
      const { book, dir } = context;
      return {
        pending: book.records('pending', project).map((job) => ({
          id: job.id, project: job.project, spider: job.spider, version: job.version,
          settings: job.settings, args: job.args,
        })),
        running: book.records('running', project).map((job) => ({
          id: job.id, project: job.project, spider: job.spider, pid: job.pid, start_time: job.start_time, ...jobUrls(dir, job),
        })),
        finished: book.records('finished', project).map((job) => ({
          id: job.id, project: job.project, spider: job.spider, start_time: job.start_time, end_time: job.end_time, ...jobUrls(dir, job),
        })),
      };
    },
  },
  'delversion.json': {
    method: 'POST',
    async handle(params, context) {
      const project = required(params, 'project');
      const version = required(params, 'version');
      requireProject(context, project);
      requireVersion(context, project, version);
      await context.store.remove(project, version);
      return {};
    },
  },
  'delproject.json': {
    method: 'POST',
    async handle(params, context) {
      const project = required(params, 'project');
      requireProject(context, project);
      await context.store.remove(project);
      return {};
    },
  },
};
