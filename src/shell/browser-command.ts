/**
 * The command view() opens a page with. Like Python's webbrowser (which
 * Scrapy's view uses): the `BROWSER` environment variable first, a list of
 * command lines separated by the path delimiter (`:`, `;` on Windows), each
 * with `%s` standing for the URL or, without it, the URL added as the last
 * argument; the first entry whose program exists is used. Without a usable
 * entry, the platform's own opener: `xdg-open`, `open` on macOS, `start` on
 * Windows. Checking that the program exists before spawning is what lets
 * view() say "set BROWSER" instead of failing later in a detached process.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';

export interface BrowserCommand {
  program: string;
  args: string[];
}

export interface BrowserChoice {
  /** The command to run, or null when none of the candidates exists. */
  command: BrowserCommand | null;
  /** What was looked for, in order, for the error message. */
  tried: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** A command line's words: whitespace separates them; '…' and "…" group (no escapes, so Windows paths keep their backslashes). */
export function commandWords(commandLine: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const char of commandLine) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

function isProgram(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's path: `name` itself when it is a path, else the first match on PATH (with PATHEXT on Windows). */
export function findProgram(name: string, env: Env, platform: NodeJS.Platform): string | null {
  const windows = platform === 'win32';
  const extensions = windows ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const isPath = windows ? /[\\/]/.test(name) : name.includes('/');
  const searchPath = env.PATH ?? (windows ? env.Path : undefined) ?? '';
  const candidates = isPath ? [name] : searchPath.split(windows ? ';' : ':').filter(Boolean).map((dir) => join(dir, name));
  for (const candidate of candidates) {
    for (const extension of extensions) {
      if (isProgram(candidate + extension, platform)) return candidate + extension;
    }
  }
  return null;
}

function platformOpener(url: string, platform: NodeJS.Platform, env: Env): { name: string; command: BrowserCommand | null } {
  if (platform === 'win32') {
    // `start` is built into cmd; its first quoted argument is a window title, hence the empty one (Node writes '' as "").
    return { name: 'start', command: { program: env.ComSpec ?? 'cmd.exe', args: ['/c', 'start', '', url] } };
  }
  const name = platform === 'darwin' ? 'open' : 'xdg-open';
  const program = findProgram(name, env, platform);
  return { name, command: program === null ? null : { program, args: [url] } };
}

/** The command that opens `url`: the first usable BROWSER entry, else the platform's opener. */
export function browserCommand(url: string, env: Env, platform: NodeJS.Platform): BrowserChoice {
  const tried: string[] = [];
  for (const entry of (env.BROWSER ?? '').split(platform === 'win32' ? ';' : ':')) {
    const words = commandWords(entry);
    const [name, ...rest] = words;
    if (name === undefined) continue;
    tried.push(`BROWSER '${entry.trim()}'`);
    const program = findProgram(name, env, platform);
    if (program === null) continue;
    const args = entry.includes('%s') ? rest.map((word) => word.replaceAll('%s', url)) : [...rest, url];
    return { command: { program, args }, tried };
  }
  const opener = platformOpener(url, platform, env);
  tried.push(opener.name);
  return { command: opener.command, tried };
}
