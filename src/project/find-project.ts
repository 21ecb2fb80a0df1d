/**
 * Project discovery, as Scrapy's closest_scrapy_cfg: the nearest seine.cfg
 * from the current folder upward marks the project root, and its
 * `[settings] default` names the settings module.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'ini';
import { ProjectConfigError } from './project-errors.js';

export const PROJECT_CONFIG_FILE = 'seine.cfg';

export interface ProjectConfig {
  /** The folder that holds seine.cfg. */
  readonly root: string;
  /** The absolute path of seine.cfg. */
  readonly configFile: string;
  /** `[settings] default` as written, e.g. 'tutorial.settings'. */
  readonly settingsModule: string;
  /** The settings file it names, e.g. <root>/tutorial/settings.ts. */
  readonly settingsFile: string;
  /** The whole file, section → key → value. */
  readonly sections: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The nearest seine.cfg at or above `cwd`, or null. */
export function findProjectConfigFile(cwd: string): string | null {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, PROJECT_CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * A module name as seine.cfg writes it (Scrapy's dotted `tutorial.settings`,
 * or a path `tutorial/settings`) → the .ts file under the project root.
 */
export function moduleFile(root: string, moduleName: string): string {
  const path = moduleName.replace(/\.(ts|js)$/, '');
  const relative = path.includes('/') ? path : path.replaceAll('.', '/');
  return join(root, `${relative}.ts`);
}

function stringSections(parsed: Record<string, unknown>): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  for (const [name, section] of Object.entries(parsed)) {
    if (typeof section !== 'object' || section === null) continue;
    sections[name] = Object.fromEntries(Object.entries(section).map(([key, value]) => [key, String(value)]));
  }
  return sections;
}

/** Reads the project around `cwd`; null outside any project. */
export function findProject(cwd: string): ProjectConfig | null {
  const configFile = findProjectConfigFile(cwd);
  if (configFile === null) return null;
  let sections: Record<string, Record<string, string>>;
  try {
    sections = stringSections(parse(readFileSync(configFile, 'utf8')));
  } catch (error) {
    throw new ProjectConfigError(`Could not read ${configFile}: ${(error as Error).message}`, { cause: error });
  }
  const settingsModule = sections['settings']?.['default'];
  if (settingsModule === undefined || settingsModule.trim() === '') {
    throw new ProjectConfigError(
      `${configFile} has no settings module: add "[settings]" with "default = <project>.settings" (the project's settings.ts)`,
    );
  }
  const root = dirname(configFile);
  const settingsFile = moduleFile(root, settingsModule.trim());
  if (!existsSync(settingsFile)) {
    throw new ProjectConfigError(
      `Settings module '${settingsModule.trim()}' named in ${configFile} not found: expected ${settingsFile}`,
    );
  }
  return { root, configFile, settingsModule: settingsModule.trim(), settingsFile, sections };
}
