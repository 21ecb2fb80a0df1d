import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SeineError } from '../errors/seine-error.js';
import { isSpiderClass, spiderName } from '../contracts/spider-brand.js';
import type { SpiderClass } from '../contracts/spider.js';
import { isCompiledSource, TypeScriptCompiler } from './compile-typescript.js';
import { stopTranspiler } from './typescript/transpile.js';
import { seineModuleUrl } from '../package-root.js';
import { missingPackage, missingPackageReason } from './missing-package.js';
import { lazyModule } from '../errors/lazy-package.js';

/** tsx's loader hooks, loaded only with SEINE_TS_LOADER=tsx (installHooks below). */
const tsxApi = lazyModule('tsx', 'loading TypeScript with SEINE_TS_LOADER=tsx', () => import('tsx/esm/api'));

export class SpiderLoadError extends SeineError {
  static readonly code = 'SEINE_SPIDER_LOAD';
  constructor(message: string, options?: { cause?: unknown }) {
    super(SpiderLoadError.code, message, options);
  }
}

/** Where `import … from 'seine'` leads in a user's file: the seine that is running (docs/dependencies.md). */
function runningSeine(): Record<string, string> {
  return { seine: seineModuleUrl(''), 'seine/operators': seineModuleUrl('operators'), 'seine/shell': seineModuleUrl('shell') };
}

let hooksInstalled = false;

/**
 * The other way to load users' `.ts` files, kept for a project the compiler
 * above cannot load (SEINE_TS_LOADER=tsx, docs/projects.md): tsx's loader
 * hooks, plus one that maps 'seine' to the running copy and makes a user's
 * .ts file an ES module also where no package.json says "type": "module".
 * On Node 20 the hooks run on a thread of their own for the whole process.
 */
async function installHooks(): Promise<void> {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // Registered after tsx, so it runs first.
  const hook = `const MAP = ${JSON.stringify(runningSeine())};
export async function resolve(specifier, context, next) {
  if (Object.hasOwn(MAP, specifier)) return { url: MAP[specifier], format: 'module', shortCircuit: true };
  const resolved = await next(specifier, context);
  if (/\\.m?ts$/.test(resolved.url) && resolved.url.startsWith('file:') && !resolved.url.includes('/node_modules/')) {
    return { ...resolved, format: 'module' };
  }
  return resolved;
}`;
  const { register: registerTsx } = await tsxApi();
  registerTsx();
  register('data:text/javascript,' + encodeURIComponent(hook));
}

let compiler: TypeScriptCompiler | undefined;
let compiling = 0;

/** The URL that imports `file`: its compiled copy for a user's TypeScript, else the file itself. */
async function importUrl(file: string): Promise<string> {
  if (process.env.SEINE_TS_LOADER === 'tsx') {
    await installHooks();
    return pathToFileURL(file).href;
  }
  if (!isCompiledSource(file)) return pathToFileURL(file).href;
  // Stack traces then name the user's .ts files and lines (the copies carry source maps).
  process.setSourceMapsEnabled(true);
  compiler ??= new TypeScriptCompiler({ aliases: runningSeine() });
  compiling++;
  try {
    return await compiler.compile(file);
  } finally {
    // The compiler's process goes when the last load in progress is done, not under another one.
    if (--compiling === 0) await stopTranspiler();
  }
}

/**
 * Imports a user's module (a spider file, a project's settings.ts or
 * pipelines.ts), compiled when it is TypeScript; `label` names it in the error.
 */
export async function loadModule(file: string, label: string = file): Promise<Record<string, unknown>> {
  try {
    return (await import(await importUrl(file))) as Record<string, unknown>;
  } catch (error) {
    const missing = missingPackage(error);
    const reason =
      missing !== null ? missingPackageReason(missing, file, label)
      // The compiler's errors start with the absolute path: the label says it shorter (`tutorial/spiders/a.ts:4:1: …`).
      : error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ').replaceAll(file, label)
      : String(error);
    throw new SpiderLoadError(`Could not load ${label}: ${reason}`, { cause: error });
  }
}

/** Imports a spider file and returns the spider classes it exports, in export order. */
export async function loadSpiderFile(path: string, cwd: string): Promise<SpiderClass[]> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw new SpiderLoadError(`File not found: ${path}`);
  const exports = await loadModule(file, path);
  const spiders = Object.values(exports).filter(isSpiderClass);
  if (spiders.length === 0) {
    throw new SpiderLoadError(`No spider found in file: ${path} (export a class that extends Spider and has a static name)`);
  }
  return spiders;
}

export { spiderName };
