import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { extname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SeineError } from '../errors/seine-error.js';
import { isSpiderClass, spiderName } from '../contracts/spider-brand.js';
import type { SpiderClass } from '../contracts/spider.js';

export class SpiderLoadError extends SeineError {
  static readonly code = 'SEINE_SPIDER_LOAD';
  constructor(message: string, options?: { cause?: unknown }) {
    super(SpiderLoadError.code, message, options);
  }
}

let hooksInstalled = false;

/**
 * Lets users' `.ts` files run with no build step (tsx), and makes their
 * `import … from 'seine'` resolve to the seine that is running — even where
 * the project has no node_modules — so that classes are shared
 * (docs/dependencies.md: a second copy breaks `instanceof Spider`).
 */
async function installHooks(): Promise<void> {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // The index next to this module: dist/index.js when running built, src/index.ts under tsx (tests).
  const ext = extname(fileURLToPath(import.meta.url));
  const map = {
    seine: new URL('../index' + ext, import.meta.url).href,
    'seine/operators': new URL('../operators/index' + ext, import.meta.url).href,
    'seine/shell': new URL('../shell/index' + ext, import.meta.url).href,
  };
  // Registered after tsx, so it runs first: 'seine' maps to the running copy, and a user's .ts
  // file is always an ES module, also where no package.json says "type": "module".
  const hook = `const MAP = ${JSON.stringify(map)};
export async function resolve(specifier, context, next) {
  if (Object.hasOwn(MAP, specifier)) return { url: MAP[specifier], format: 'module', shortCircuit: true };
  const resolved = await next(specifier, context);
  if (/\\.m?ts$/.test(resolved.url) && resolved.url.startsWith('file:') && !resolved.url.includes('/node_modules/')) {
    return { ...resolved, format: 'module' };
  }
  return resolved;
}`;
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  register('data:text/javascript,' + encodeURIComponent(hook));
}

/**
 * Imports a user's module (a spider file, a project's settings.ts or
 * pipelines.ts) with the hooks above; `label` names it in the error.
 */
export async function loadModule(file: string, label: string = file): Promise<Record<string, unknown>> {
  await installHooks();
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
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
