/**
 * `-s NAME=VALUE` command-line settings. The value is kept as the string
 * typed (Scrapy does the same); `Settings.get()` and the typed getters read
 * it as the setting's type later, and their errors quote the option.
 */
import { SETTINGS_PRIORITIES } from './priorities.js';
import type { Settings } from './settings.js';
import { SetOptionError } from './settings-error.js';

export interface SetOption {
  readonly name: string;
  readonly value: string;
}

/** Splits at the first '=' ('A=b=c' sets A to 'b=c'); the name must not be empty. */
export function parseSetOption(arg: string): SetOption {
  const eq = arg.indexOf('=');
  if (eq <= 0) {
    const problem = eq === 0 ? 'the setting name is empty' : "it has no '='";
    throw new SetOptionError(
      `invalid -s value '${arg}': ${problem}; use -s NAME=VALUE, e.g. -s CONCURRENT_REQUESTS=8`,
    );
  }
  return { name: arg.slice(0, eq), value: arg.slice(eq + 1) };
}

/** Applies each `-s` argument at priority 'cmdline', remembering the option as the value's source. */
export function applySetOptions(settings: Settings, args: readonly string[]): void {
  const parsed = args.map(parseSetOption);
  for (const [i, { name, value }] of parsed.entries()) {
    settings.set(name, value, SETTINGS_PRIORITIES.cmdline, `-s ${args[i]}`);
  }
}
