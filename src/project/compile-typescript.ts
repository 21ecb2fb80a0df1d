/**
 * Compiles a user's TypeScript file and the project files it imports into
 * ES modules Node can import with no loader hooks, so a crawl runs in one
 * V8 isolate. (On Node 20, `module.register` — what tsx uses — runs the
 * hooks on a thread of its own, a second isolate that lived for the whole
 * crawl: +32 MB of the crawl's peak RSS, docs/performance.md.)
 *
 * Each `.ts` file becomes `<its path>.mjs` under mirror-path.ts's folder,
 * with its imports rewritten to absolute URLs: `seine` (and `seine/…`) to
 * the running copy, so the user's classes and the CLI's are the same
 * classes (docs/dependencies.md); a relative import of another `.ts` file
 * to that file's compiled copy, so a module imported from two places is
 * one module; any other file to its own URL. Package names are left for
 * Node to resolve from the copy's folder, which sits under the same
 * node_modules. A copy is reused while its source, its tsconfig.json, the
 * compiler and the resolution of its imports are unchanged: a second run
 * starts no compiler.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPackageVersion } from '../version.js';
import { tsconfigFor } from './typescript/find-tsconfig.js';
import { mirrorPath, temporaryMirrorPath } from './typescript/mirror-path.js';
import { isPathSpecifier, resolvePathImport, TYPESCRIPT_EXTENSIONS } from './typescript/resolve-import.js';
import { transpile } from './typescript/transpile.js';

/** Bumped when the compiled form changes, so older copies are not reused. */
const FORMAT = 'seine-ts 1';
const META_PREFIX = '//# seine-ts ';

/** Files seine compiles: TypeScript, and `.mjs` so that it may import 'seine' with no node_modules too. */
export function isCompiledSource(file: string): boolean {
  const ext = extname(file);
  return (TYPESCRIPT_EXTENSIONS.has(ext) || ext === '.mjs') && !file.split(/[\\/]/).includes('node_modules');
}

/** A relative import that names no file: the user's mistake, reported with both names. */
export class MissingImportError extends Error {}

export interface CompilerOptions {
  /** Specifier → URL for the packages that must be the running copy ('seine', 'seine/operators', …). */
  readonly aliases: Readonly<Record<string, string>>;
}

interface Resolution {
  readonly specifier: string;
  readonly file: string | null;
}

export class TypeScriptCompiler {
  readonly #options: CompilerOptions;
  readonly #salt: string;
  readonly #done = new Map<string, Promise<void>>();
  readonly #writable = new Map<string, boolean>();
  readonly #located = new Map<string, string>();

  constructor(options: CompilerOptions) {
    this.#options = options;
    this.#salt = [FORMAT, findPackageVersion('esbuild') ?? '', JSON.stringify(options.aliases)].join('\0');
  }

  /** Compiles `file` (absolute) and what it imports; resolves to the URL to import. */
  async compile(file: string): Promise<string> {
    await this.#compileOnce(file);
    return pathToFileURL(this.#location(file)).href;
  }

  #compileOnce(file: string): Promise<void> {
    let done = this.#done.get(file);
    if (done === undefined) {
      done = this.#compileFile(file);
      this.#done.set(file, done);
    }
    return done;
  }

  /** Where `file`'s copy goes: under node_modules when that folder can be written, else the temporary folder. */
  #location(file: string): string {
    let path = this.#located.get(file);
    if (path === undefined) {
      path = mirrorPath(file);
      const folder = dirname(path);
      let writable = this.#writable.get(folder);
      if (writable === undefined) {
        try {
          mkdirSync(folder, { recursive: true });
          writable = true;
        } catch {
          writable = false;
        }
        this.#writable.set(folder, writable);
      }
      if (!writable) path = temporaryMirrorPath(file);
      this.#located.set(file, path);
    }
    return path;
  }

  async #compileFile(file: string): Promise<void> {
    const source = readFileSync(file, 'utf8');
    const tsconfig = tsconfigFor(file);
    const key = createHash('sha1').update(this.#salt).update('\0').update(tsconfig ?? '').update('\0').update(file).update('\0').update(source).digest('hex');
    const target = this.#location(file);
    const cached = this.#cachedResolutions(target, key, file);
    const resolutions = cached ?? (await this.#write(file, source, tsconfig, key, target));
    await Promise.all(
      resolutions.flatMap(({ file: dependency }) => (dependency !== null && isCompiledSource(dependency) ? [this.#compileOnce(dependency)] : [])),
    );
  }

  /** The copy's recorded imports when it was made from this very source and they still resolve the same; else undefined. */
  #cachedResolutions(target: string, key: string, file: string): Resolution[] | undefined {
    let text: string;
    try {
      text = readFileSync(target, 'utf8');
    } catch {
      return undefined;
    }
    const at = text.lastIndexOf(`\n${META_PREFIX}${key} `);
    if (at < 0) return undefined;
    const line = text.slice(at + 1 + META_PREFIX.length + key.length + 1, text.indexOf('\n', at + 1));
    try {
      const resolutions = JSON.parse(line) as Resolution[];
      const same = resolutions.every(({ specifier, file: was }) => (resolvePathImport(specifier, file) ?? null) === was);
      return same ? resolutions : undefined;
    } catch {
      return undefined;
    }
  }

  async #write(file: string, source: string, tsconfig: string | undefined, key: string, target: string): Promise<Resolution[]> {
    const code = await transpile(source, file, { tsconfig });
    // Loaded on a cache miss only, as transpile() loads esbuild: acorn takes ~13 ms that a cached start-up never pays.
    const { importSpecifiers, replaceSpecifiers } = await import('./typescript/import-specifiers.js');
    const specifiers = importSpecifiers(code);
    const resolutions: Resolution[] = [];
    const rewritten = replaceSpecifiers(code, specifiers, (specifier) => {
      const alias = this.#options.aliases[specifier];
      if (alias !== undefined) return alias;
      if (!isPathSpecifier(specifier)) return undefined;
      const resolved = resolvePathImport(specifier, file);
      if (resolved === undefined) throw new MissingImportError(`Cannot find '${specifier}' imported from ${file}`);
      resolutions.push({ specifier, file: resolved });
      return pathToFileURL(isCompiledSource(resolved) ? this.#location(resolved) : resolved).href;
    });
    // The record goes just before the source map's comment, after the code: a line at the top
    // would shift every line the map points at.
    const mapAt = rewritten.lastIndexOf('\n//# sourceMappingURL=');
    const record = `\n${META_PREFIX}${key} ${JSON.stringify(resolutions)}`;
    const text = mapAt < 0 ? rewritten + record + '\n' : rewritten.slice(0, mapAt) + record + rewritten.slice(mapAt);
    // Written whole, then renamed: another seine compiling the same file at once never reads half a file.
    const temporary = `${target}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, text);
      renameSync(temporary, target);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    return resolutions;
  }
}
