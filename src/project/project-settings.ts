/**
 * A project's settings.ts as settings: every exported UPPER_SNAKE constant,
 * at the 'project' priority. Component lists (ITEM_PIPELINES, …) may name
 * the project's own classes as strings — `{ TutorialPipeline: 300 }`, or
 * Scrapy's dotted `'tutorial.pipelines.TutorialPipeline'` — which are
 * resolved here against the project's modules, so that the engine receives
 * the classes themselves (a Map from class to order).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadModule } from './load-module.js';
import type { ProjectConfig } from './find-project.js';
import { moduleFile } from './find-project.js';

const SETTING_NAME = /^[A-Z][A-Z0-9_]*$/;

export const COMPONENT_SETTINGS = ['ITEM_PIPELINES', 'DOWNLOADER_MIDDLEWARES', 'SPIDER_MIDDLEWARES', 'EXTENSIONS', 'SPIDER_CONTRACTS'] as const;

/** Where a bare class name is looked up, in this order (Scrapy's generated settings name these modules). */
const COMPONENT_MODULES = ['pipelines', 'middlewares', 'extensions', 'contracts'] as const;

type Exports = Record<string, unknown>;

/** Loads modules on first use: a project whose settings name no class never imports its pipelines.ts. */
class ProjectModules {
  readonly #cache = new Map<string, Exports | null>();
  constructor(readonly project: ProjectConfig) {}

  async exportsOf(file: string): Promise<Exports | null> {
    if (!this.#cache.has(file)) {
      this.#cache.set(file, existsSync(file) ? await loadModule(file, file.slice(this.project.root.length + 1)) : null);
    }
    return this.#cache.get(file) ?? null;
  }

  async findClass(key: string, settingsExports: Exports): Promise<Function | undefined> {
    const dot = key.lastIndexOf('.');
    if (dot > 0) {
      // 'tutorial.pipelines.TutorialPipeline': the module, then the export.
      const exports = await this.exportsOf(moduleFile(this.project.root, key.slice(0, dot), `The project's settings.ts (component '${key}')`));
      const found = exports?.[key.slice(dot + 1)];
      return typeof found === 'function' ? found : undefined;
    }
    if (typeof settingsExports[key] === 'function') return settingsExports[key] as Function;
    const packageDir = dirname(this.project.settingsFile);
    for (const name of COMPONENT_MODULES) {
      const found = (await this.exportsOf(join(packageDir, `${name}.ts`)))?.[key];
      if (typeof found === 'function') return found;
    }
    return undefined;
  }
}

async function resolveComponents(value: unknown, modules: ProjectModules, settingsExports: Exports): Promise<unknown> {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const resolved = new Map<string | Function, unknown>();
  let anyClass = false;
  for (const [key, order] of Object.entries(value)) {
    const cls = await modules.findClass(key, settingsExports);
    if (cls !== undefined) anyClass = true;
    // A name the project does not export stays a string: a built-in component, or UnknownComponentError later.
    resolved.set(cls ?? key, order);
  }
  return anyClass ? resolved : value;
}

/**
 * A spider's customSettings with the same rule as settings.ts: class names in
 * its component lists (`ITEM_PIPELINES: { PricePipeline: 300 }`) are looked up
 * in the project's modules. Other values are kept as they are.
 */
export async function resolveCustomSettings(project: ProjectConfig, customSettings: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
  const modules = new ProjectModules(project);
  const settingsExports = await loadModule(project.settingsFile, project.settingsFile.slice(project.root.length + 1));
  const settings: Record<string, unknown> = { ...customSettings };
  for (const name of COMPONENT_SETTINGS) {
    if (name in settings) settings[name] = await resolveComponents(settings[name], modules, settingsExports);
  }
  return settings;
}

/** The project's settings, ready for CrawlerImpl's `projectSettings`. */
export async function loadProjectSettings(project: ProjectConfig): Promise<Record<string, unknown>> {
  const exports = await loadModule(project.settingsFile, project.settingsFile.slice(project.root.length + 1));
  const modules = new ProjectModules(project);
  const settings: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(exports)) {
    if (!SETTING_NAME.test(name)) continue;
    settings[name] = (COMPONENT_SETTINGS as readonly string[]).includes(name)
      ? await resolveComponents(value, modules, exports)
      : value;
  }
  return settings;
}
