/**
 * `/logs/<project>/<spider>/<job>.log` and `/items/…/<job>.jl`, confined to
 * the service folder: the raw path is refused when it holds a backslash, a
 * NUL or an encoded one, or an encoded `%` (double encoding); once decoded,
 * it must be exactly three plain names (letters, digits, `_ . -`, never `.`
 * or `..`), and the file it names — symlinks resolved — must be a regular
 * file under the folder's own logs/ or items/. Anything else is a 404 (or
 * 400 for a path that does not decode), never a file from elsewhere.
 */
import { createReadStream, realpathSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import { SAFE_NAME } from './job-record.js';

export type FileAnswer = { status: 200; path: string; size: number; type: string } | { status: 400 | 404 };

const KINDS: Record<string, { ext: string; type: string }> = {
  logs: { ext: '.log', type: 'text/plain; charset=utf-8' },
  items: { ext: '.jl', type: 'application/x-ndjson; charset=utf-8' },
};

export function resolveJobFile(dir: string, rawPath: string): FileAnswer {
  if (/[\\\0]|%(00|5c|25)/i.test(rawPath)) return { status: 400 };
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { status: 400 };
  }
  const parts = path.split('/');
  // '', kind, project, spider, file
  if (parts.length !== 5 || parts[0] !== '') return { status: 404 };
  const [, kind, project, spider, file] = parts as [string, string, string, string, string];
  const rule = KINDS[kind];
  if (rule === undefined || !file.endsWith(rule.ext)) return { status: 404 };
  if (![project, spider, file].every((name) => SAFE_NAME.test(name) && !name.includes('..'))) return { status: 404 };
  try {
    const root = realpathSync(join(dir, kind));
    const real = realpathSync(join(root, project, spider, file));
    if (!real.startsWith(root + sep)) return { status: 404 };
    const stat = statSync(real);
    if (!stat.isFile()) return { status: 404 };
    return { status: 200, path: real, size: stat.size, type: rule.type };
  } catch {
    return { status: 404 };
  }
}

export function sendJobFile(answer: Extract<FileAnswer, { status: 200 }>, response: ServerResponse, head: boolean): void {
  response.writeHead(200, { 'Content-Type': answer.type, 'Content-Length': answer.size, 'X-Content-Type-Options': 'nosniff' });
  if (head) response.end();
  else createReadStream(answer.path, { start: 0, end: Math.max(0, answer.size - 1) }).pipe(response);
}
