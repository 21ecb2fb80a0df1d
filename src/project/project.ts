/**
 * A project as the commands see it: its seine.cfg, its settings.ts as
 * settings, and (on demand) its spiders.
 */
import { findProject, type ProjectConfig } from './find-project.js';
import { NotInProjectError } from './project-errors.js';
import { loadProjectSettings } from './project-settings.js';
import { SpiderLoader, type FoundSpider } from './spider-loader.js';
import { defaultLogBus, type LogBus } from '../log/log-bus.js';

export interface Project {
  readonly config: ProjectConfig;
  /** settings.ts's settings, component names resolved to classes. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** SPIDER_MODULES from settings.ts (Scrapy's default: none). */
  readonly spiderModules: readonly string[];
  /** NEWSPIDER_MODULE from settings.ts, or null. */
  readonly newSpiderModule: string | null;
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return Array.isArray(value) ? value.map(String) : [];
}

/** The project around `cwd`, or null outside any project. */
export async function openProject(cwd: string): Promise<Project | null> {
  const config = findProject(cwd);
  if (config === null) return null;
  const settings = await loadProjectSettings(config);
  const newSpider = settings['NEWSPIDER_MODULE'];
  return {
    config,
    settings,
    spiderModules: stringList(settings['SPIDER_MODULES']),
    newSpiderModule: typeof newSpider === 'string' && newSpider !== '' ? newSpider : null,
  };
}

/** The project a command was run in; outside one, NotInProjectError (for crawl, list, parse). */
export function requireProject(project: Project | null, cwd: string): Project {
  if (project === null) throw new NotInProjectError(cwd);
  return project;
}

export function loadSpiders(project: Project): Promise<SpiderLoader> {
  return SpiderLoader.load(project.config.root, project.spiderModules);
}

/**
 * The project's spider called `name`, from the spider files that declare it
 * where it can (SpiderLoader.loadNamed). Each spider file that could not be
 * loaded is a WARNING on `logBus` first, so a crawl goes on without it and
 * a `Spider not found` error comes after the reason.
 */
export async function loadSpider(project: Project, name: string, logBus: LogBus = defaultLogBus): Promise<FoundSpider> {
  const loader = await SpiderLoader.loadNamed(project.config.root, project.spiderModules, name);
  const log = logBus.getLogger('seine.spiderloader');
  for (const failure of loader.failures) log.warning(failure.error.message);
  return loader.load(name);
}
