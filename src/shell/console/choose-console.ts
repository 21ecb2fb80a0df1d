/**
 * Which console the shell opens: the first available of a list that comes
 * from SEINE_SHELL (comma-separated) if set, else `shell = …` in the
 * `[settings]` section of seine.cfg, else `ts, node`. `node` is always added
 * at the end as the fallback, as Scrapy always falls back to the plain
 * Python console. A name that is not a console is an error that lists them.
 */
import { transformSync } from 'esbuild';
import { ShellConsoleError } from '../shell-errors.js';

export const CONSOLE_KINDS = ['ts', 'node'] as const;
export type ConsoleKind = (typeof CONSOLE_KINDS)[number];

export interface ConsoleChoice {
  /** SEINE_SHELL as set (or undefined). */
  readonly env?: string;
  /** `shell` from seine.cfg's [settings] (or undefined). */
  readonly config?: string;
  /** Whether a console can start here; default: `ts` needs esbuild to load. */
  readonly isAvailable?: (kind: ConsoleKind) => boolean;
}

function isConsoleKind(name: string): name is ConsoleKind {
  return (CONSOLE_KINDS as readonly string[]).includes(name);
}

let tsWorks: boolean | undefined;
function defaultAvailability(kind: ConsoleKind): boolean {
  if (kind === 'node') return true;
  if (tsWorks === undefined) {
    try {
      transformSync('let x: number = 1', { loader: 'ts' });
      tsWorks = true;
    } catch {
      tsWorks = false; // esbuild's native binary is missing for this platform
    }
  }
  return tsWorks;
}

export function chooseConsole(choice: ConsoleChoice): ConsoleKind {
  const fromEnv = choice.env !== undefined && choice.env.trim() !== '';
  const source = fromEnv ? 'SEINE_SHELL' : choice.config !== undefined && choice.config.trim() !== '' ? "'shell' in seine.cfg" : null;
  const raw = fromEnv ? choice.env! : source !== null ? choice.config! : CONSOLE_KINDS.join(',');
  const names = raw.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  for (const name of names) {
    if (!isConsoleKind(name)) {
      throw new ShellConsoleError(`Unknown console '${name}' in ${source ?? 'the default list'}: the consoles are ${CONSOLE_KINDS.join(', ')} (a comma-separated list means the first available)`);
    }
  }
  const available = choice.isAvailable ?? defaultAvailability;
  return ([...names, 'node'] as ConsoleKind[]).find((kind) => available(kind)) ?? 'node';
}
