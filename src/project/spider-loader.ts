/**
 * Scrapy's SpiderLoader for a project: every .ts file under the folders
 * SPIDER_MODULES names is imported; its spiders are the exported classes
 * that extend Spider and have their own static name. A command that runs
 * one spider by name imports only the files whose text declares that name
 * (`SpiderLoader.loadNamed`), so `seine crawl` in a project of many spiders
 * loads one of them.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadModule } from './load-module.js';
import { isSpiderClass, spiderName } from '../contracts/spider-brand.js';
import type { SpiderClass } from '../contracts/spider.js';
import { ProjectConfigError, DuplicateSpiderError, SpiderNotFoundError } from './project-errors.js';
import { assertInsideProject, moduleFile } from './find-project.js';
import { escapeRegExp } from '../escape-regexp.js';

export interface FoundSpider {
  readonly name: string;
  readonly spiderClass: SpiderClass;
  /** The file that exported it first, relative to the project root. */
  readonly file: string;
}

function isSourceFile(name: string): boolean {
  return /\.(ts|mts)$/.test(name) && !/\.d\.m?ts$/.test(name);
}

/** The .ts files under `dir`, sorted, node_modules and dot folders left out. */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) files.push(...sourceFiles(path));
    else if (entry.isFile() && isSourceFile(entry.name)) files.push(path);
  }
  return files;
}

/** The files a SPIDER_MODULES entry stands for: a folder's .ts files, or one file. */
export function spiderModuleFiles(root: string, moduleName: string): string[] {
  const path = moduleName.includes('/') ? moduleName : moduleName.replaceAll('.', '/');
  const dir = join(root, path);
  assertInsideProject(root, dir, moduleName, "SPIDER_MODULES in the project's settings.ts");
  if (existsSync(dir) && statSync(dir).isDirectory()) return sourceFiles(dir);
  const file = moduleFile(root, moduleName, "SPIDER_MODULES in the project's settings.ts");
  if (existsSync(file)) return [file];
  throw new ProjectConfigError(
    `SPIDER_MODULES names '${moduleName}', but there is no folder ${dir} and no file ${file}: fix SPIDER_MODULES in the project's settings.ts`,
  );
}

/** True when `source` has `static name = '<name>'` (any quotes, `override`/`readonly`, a type annotation). */
export function declaresName(source: string, name: string): boolean {
  const quoted = ['\'', '"', '`'].map((quote) => quote + escapeRegExp(name) + quote).join('|');
  return new RegExp(`\\bstatic\\s+(?:(?:override|readonly|declare)\\s+)*name\\s*(?::[^=;]+)?=\\s*(?:${quoted})`).test(source);
}

export class SpiderLoader {
  readonly #spiders = new Map<string, FoundSpider>();

  private constructor(spiders: readonly FoundSpider[]) {
    for (const spider of spiders) this.#spiders.set(spider.name, spider);
  }

  /** Imports every spider module; two classes with one name are an error naming both files. */
  static async load(root: string, spiderModules: readonly string[]): Promise<SpiderLoader> {
    return SpiderLoader.#fromFiles(root, spiderModules.flatMap((moduleName) => spiderModuleFiles(root, moduleName)));
  }

  /**
   * The loader for a command that runs the spider called `name`: only the
   * files whose text has `static name = '<name>'` are imported. When none
   * does, or none of them exports that spider (a name computed at run time),
   * every spider module is, as load() does; so the errors are load()'s.
   */
  static async loadNamed(root: string, spiderModules: readonly string[], name: string): Promise<SpiderLoader> {
    const files = spiderModules.flatMap((moduleName) => spiderModuleFiles(root, moduleName));
    const declaring = files.filter((file) => declaresName(readFileSync(file, 'utf8'), name));
    if (declaring.length > 0) {
      const loader = await SpiderLoader.#fromFiles(root, declaring);
      if (loader.find(name) !== undefined) return loader;
    }
    return SpiderLoader.#fromFiles(root, files);
  }

  static async #fromFiles(root: string, files: readonly string[]): Promise<SpiderLoader> {
    const found = new Map<string, FoundSpider>();
    for (const file of files) {
      const label = relative(root, file);
      const exports = await loadModule(file, label);
      for (const value of Object.values(exports)) {
        if (!isSpiderClass(value)) continue;
        const name = spiderName(value)!;
        const previous = found.get(name);
        // The same class re-exported (an index.ts with `export * from`) is one spider, not two.
        if (previous === undefined) found.set(name, { name, spiderClass: value, file: label });
        else if (previous.spiderClass !== value) throw new DuplicateSpiderError(name, [previous.file, label]);
      }
    }
    return new SpiderLoader([...found.values()]);
  }

  /** The spiders' names, sorted (what `seine list` prints). */
  list(): string[] {
    return [...this.#spiders.keys()].sort();
  }

  find(name: string): FoundSpider | undefined {
    return this.#spiders.get(name);
  }

  load(name: string): FoundSpider {
    const spider = this.#spiders.get(name);
    if (spider === undefined) throw new SpiderNotFoundError(name, this.list());
    return spider;
  }
}
