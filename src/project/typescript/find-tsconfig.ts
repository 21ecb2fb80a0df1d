/**
 * The tsconfig.json that applies to a source file, as tsc finds it: the
 * nearest one in the file's folder or above. Its compiler options that
 * change the output (class-field semantics, decorators, JSX) are passed to
 * esbuild as written; esbuild reads comments and trailing commas, but not
 * `extends`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const byFolder = new Map<string, string | undefined>();

export function tsconfigFor(file: string): string | undefined {
  const folder = dirname(file);
  if (byFolder.has(folder)) return byFolder.get(folder);
  let text: string | undefined;
  try {
    text = readFileSync(join(folder, 'tsconfig.json'), 'utf8');
  } catch {
    const parent = dirname(folder);
    text = parent === folder ? undefined : tsconfigFor(join(parent, 'x'));
  }
  byFolder.set(folder, text);
  return text;
}
