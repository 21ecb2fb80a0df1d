/**
 * Scrapy's SpiderLoader for a project: every .ts file under the folders
 * SPIDER_MODULES names is imported; its spiders are the exported classes
 * that extend Spider and have their own static name. A file that fails to
 * load (a syntax error, a package not installed, a throw at its top level)
 * costs only its own spiders: it is kept in `failures`, for the commands to
 * report (docs/projects.md, "A spider file that does not load"), and the
 * other files are loaded. A command that runs one spider by name
 * (`SpiderLoader.loadNamed`) takes it from the files whose text declares
 * that name, so another file's spider with the same name does not stop it.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadModule, SpiderLoadError } from './load-module.js';
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

/** A spider file that could not be imported: its path relative to the project root, and why. */
export interface LoadFailure {
  readonly file: string;
  readonly error: SpiderLoadError;
}

function isSourceFile(name: string): boolean {
  return /\.(ts|mts)$/.test(name) && !/\.d\.m?ts$/.test(name);
}

/** The .ts files under `dir`, sorted, node_modules and dot folders left out. */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) for (const file of sourceFiles(path)) files.push(file);
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
  /** The spider files that could not be imported, in file order. */
  readonly failures: readonly LoadFailure[];

  private constructor(spiders: readonly FoundSpider[], failures: readonly LoadFailure[]) {
    for (const spider of spiders) this.#spiders.set(spider.name, spider);
    this.failures = failures;
  }

  /** Imports every spider module; two classes with one name are an error naming both files. */
  static async load(root: string, spiderModules: readonly string[]): Promise<SpiderLoader> {
    return SpiderLoader.#fromFiles(root, spiderModules.flatMap((moduleName) => spiderModuleFiles(root, moduleName)));
  }

  /**
   * The loader for a command that runs the spider called `name`: its spider
   * comes from the files whose text has `static name = '<name>'`; the other
   * files are imported too, only so that those that fail are reported. When
   * no file declares the name, or none of them exports that spider (a name
   * computed at run time), every spider module counts, as load() does; so
   * the errors are load()'s.
   */
  static async loadNamed(root: string, spiderModules: readonly string[], name: string): Promise<SpiderLoader> {
    const files = spiderModules.flatMap((moduleName) => spiderModuleFiles(root, moduleName));
    const declaring = files.filter((file) => declaresName(readFileSync(file, 'utf8'), name));
    if (declaring.length > 0) {
      const loader = await SpiderLoader.#fromFiles(root, declaring);
      const found = loader.find(name);
      if (found !== undefined) {
        const others = await SpiderLoader.#fromFiles(root, files.filter((file) => !declaring.includes(file)), { spiders: false });
        // In file order, as load() lists them.
        const failures = [...loader.failures, ...others.failures].sort((a, b) => files.indexOf(join(root, a.file)) - files.indexOf(join(root, b.file)));
        return new SpiderLoader([found], failures);
      }
    }
    return SpiderLoader.#fromFiles(root, files);
  }

  static async #fromFiles(root: string, files: readonly string[], options = { spiders: true }): Promise<SpiderLoader> {
    const found = new Map<string, FoundSpider>();
    const failures: LoadFailure[] = [];
    for (const file of files) {
      const label = relative(root, file);
      let exports: Record<string, unknown>;
      try {
        exports = await loadModule(file, label);
      } catch (error) {
        if (!(error instanceof SpiderLoadError)) throw error;
        failures.push({ file: label, error });
        continue;
      }
      if (!options.spiders) continue;
      for (const value of Object.values(exports)) {
        if (!isSpiderClass(value)) continue;
        const name = spiderName(value)!;
        const previous = found.get(name);
        // The same class re-exported (an index.ts with `export * from`) is one spider, not two.
        if (previous === undefined) found.set(name, { name, spiderClass: value, file: label });
        else if (previous.spiderClass !== value) throw new DuplicateSpiderError(name, [previous.file, label]);
      }
    }
    return new SpiderLoader([...found.values()], failures);
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
    if (spider === undefined) throw new SpiderNotFoundError(name, this.list(), this.failures.map((failure) => failure.file));
    return spider;
  }
}
