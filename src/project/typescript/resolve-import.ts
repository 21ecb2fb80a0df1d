/**
 * A relative import in a user's TypeScript file, resolved the way tsc and
 * tsx resolve it: `./items.js` may name `items.ts` (the NodeNext style),
 * `./items` may name `items.ts`, `items.tsx`, … or `items/index.ts` (the
 * bundler style), and a name with its real extension is taken as written.
 */
import { statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';

/** The TypeScript sources seine compiles; other files are imported as they are. */
export const TYPESCRIPT_EXTENSIONS: ReadonlySet<string> = new Set(['.ts', '.tsx', '.mts']);

const FOR_JS_EXTENSION: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
};

const GUESSED_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'];

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

function candidates(base: string): string[] {
  const ext = extname(base);
  const typed = FOR_JS_EXTENSION[ext];
  if (typed !== undefined) return [...typed.map((replacement) => base.slice(0, -ext.length) + replacement), base];
  return [base, ...GUESSED_EXTENSIONS.map((guess) => base + guess), ...GUESSED_EXTENSIONS.map((guess) => resolve(base, 'index' + guess))];
}

/** True for './x', '../x', '/abs/x': the specifiers resolved against the importing file. */
export function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..' || specifier.startsWith('/');
}

/** The file `specifier` names from `importer`, or undefined when there is none (Node then reports it). */
export function resolvePathImport(specifier: string, importer: string): string | undefined {
  const base = resolve(dirname(importer), specifier.split(/[?#]/, 1)[0]!);
  return candidates(base).find(isFile);
}
