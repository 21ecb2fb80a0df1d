/**
 * The stack of an error in how seine was called — an invalid XPath or CSS
 * query, a wrong argument to a selector method, an index past a list's end —
 * keeps only the caller's frames, so the "Spider error processing" log names
 * the spider's file and line and nothing of seine's own.
 *
 * Two things hid that line before. The XPath parser recurses once per
 * nesting level, so its frames alone filled V8's default 10 (the spider's
 * frame was not even recorded); and the frames that were recorded were
 * seine's bundled chunks (dist/chunks/…), which tell a user nothing. So the
 * stack is captured again without the limit, and seine's files (dist/ and
 * src/ of this package), Node's internals and frames without a file
 * (`parse.next (<anonymous>)`) are dropped. When nothing is left (seine
 * called itself), the stack stays as V8 wrote it.
 */
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../package-root.js';

const OWN_FOLDERS = [join(PACKAGE_ROOT, 'dist') + sep, join(PACKAGE_ROOT, 'src') + sep];

/** The file of a stack line (`    at f (file:///a/b.ts:3:9)`, `    at /a/b.ts:3:9`, `    at REPL4:1:7`), or null when it names none. */
function fileOf(line: string): string | null {
  const match = /\((.+):\d+:\d+\)$/.exec(line) ?? /^\s+at (?:async )?([^ ()]+):\d+:\d+$/.exec(line);
  if (match === null) return null;
  const file = match[1]!;
  return file.startsWith('file://') ? fileURLToPath(file) : file;
}

function isCallerFrame(line: string): boolean {
  const file = fileOf(line);
  return file !== null && !file.startsWith('node:') && !OWN_FOLDERS.some((folder) => file.startsWith(folder));
}

/** Rewrites `error.stack` to the caller's frames; `constructor` is the error's own (its frames and those above are left out). */
export function blameCaller(error: Error, constructor: abstract new (...args: never[]) => Error): void {
  const limit = Error.stackTraceLimit;
  if (typeof limit !== 'number' || limit <= 0) return;
  const holder: { stack?: string } = {};
  Error.stackTraceLimit = Infinity;
  try {
    Error.captureStackTrace(holder, constructor);
  } finally {
    Error.stackTraceLimit = limit;
  }
  const frames = (holder.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line) && isCallerFrame(line));
  if (frames.length === 0) return;
  error.stack = [`${error.name}: ${error.message}`, ...frames.slice(0, limit)].join('\n');
}
