/**
 * Project discovery, as Scrapy's closest_scrapy_cfg: the nearest seine.cfg
 * from the current folder upward marks the project root, and its
 * `[settings] default` names the settings module.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
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

/** True when `path` is `root` or under it (by its name: a symlink the project holds is the project's choice). */
export function isInsideFolder(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * A project module path (seine.cfg's `[settings] default`, SPIDER_MODULES,
 * NEWSPIDER_MODULE, a dotted component name) that would lead outside the
 * project folder: a ProjectConfigError naming the value and where it is
 * written (docs/security.md, "Paths"). `../outside/evil` would otherwise
 * run a module from anywhere, even for `seine settings --get`.
 */
export function assertInsideProject(root: string, path: string, moduleName: string, where: string): void {
  if (isInsideFolder(root, path)) return;
  throw new ProjectConfigError(
    `${where} names the module '${moduleName}', which leads outside the project folder ${root} (to ${path}): ` +
      "module paths must stay inside the project; write it relative to the project folder, e.g. 'myproject.settings' or 'myproject/settings'",
  );
}

/**
 * A module name as seine.cfg writes it (Scrapy's dotted `tutorial.settings`,
 * or a path `tutorial/settings`) → the .ts file under the project root.
 * `where` names the place the value comes from, for the error when the
 * path would leave the project folder.
 */
export function moduleFile(root: string, moduleName: string, where = `${PROJECT_CONFIG_FILE}`): string {
  const path = moduleName.replace(/\.(ts|js)$/, '');
  const relativePath = path.includes('/') ? path : path.replaceAll('.', '/');
  const file = join(root, `${relativePath}.ts`);
  assertInsideProject(root, file, moduleName, where);
  return file;
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
  const settingsFile = moduleFile(root, settingsModule.trim(), `${configFile} ([settings] default)`);
  if (!existsSync(settingsFile)) {
    throw new ProjectConfigError(
      `Settings module '${settingsModule.trim()}' named in ${configFile} not found: expected ${settingsFile}`,
    );
  }
  return { root, configFile, settingsModule: settingsModule.trim(), settingsFile, sections };
}
