/**
 * Which modules a child process imports: a file to preload with
 * `NODE_OPTIONS=--import=<hook>` that registers a resolve hook appending
 * each specifier `matches` accepts to `log`, one per line. Used by the
 * tests that check a command never loads a package it does not need.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ResolveLog {
  /** Give the child `{ NODE_OPTIONS: `--import=${hook}` }`. */
  readonly hook: string;
  /** The specifiers logged since the last clear(). */
  specifiers(): string[];
  clear(): void;
}

/** `matches` is the body of a JavaScript test on `specifier`, e.g. "specifier.startsWith('tsx')". */
export function resolveLog(dir: string, matches: string): ResolveLog {
  const log = join(dir, 'resolved.log');
  const hook = join(dir, 'resolve-log-hook.mjs');
  const resolver = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (${matches}) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
  return next(specifier, context);
}`;
  writeFileSync(hook, `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(resolver)}));\n`);
  return {
    hook,
    specifiers: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
    clear: () => rmSync(log, { force: true }),
  };
}
