import type { Settings } from '../../settings/settings.js';
import { defineCommand } from '../command.js';

/**
 * How `--get` prints a value: text as is, everything else as JSON (Scrapy
 * prints Python reprs; JSON is what a Node.js user can paste back into `-s`).
 */
export function printableValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  return JSON.stringify(value) ?? String(value);
}

const GETTERS = {
  get: (settings: Settings, name: string) => printableValue(settings.get(name)),
  getbool: (settings: Settings, name: string) => String(settings.getBool(name)),
  getint: (settings: Settings, name: string) => String(settings.getInt(name)),
  getfloat: (settings: Settings, name: string) => String(settings.getFloat(name)),
  getlist: (settings: Settings, name: string) => JSON.stringify(settings.getList(name)),
} as const;

const DESCRIPTIONS: Readonly<Record<keyof typeof GETTERS, string>> = {
  get: 'print the setting value',
  getbool: 'print the setting value, read as a boolean',
  getint: 'print the setting value, read as an integer',
  getfloat: 'print the setting value, read as a float',
  getlist: 'print the setting value, read as a list',
};

/**
 * `seine settings --get NAME` and the typed variants print effective values
 * (defaults < the project's settings.ts < `-s`). Several options print one line each, in the
 * order get, getbool, getint, getfloat, getlist (Scrapy prints only the first).
 */
export const settingsCommand = defineCommand({
  name: 'settings',
  description: 'Get settings values',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) =>
    parser
      .option('get', { type: 'string', requiresArg: true, describe: DESCRIPTIONS.get })
      .option('getbool', { type: 'string', requiresArg: true, describe: DESCRIPTIONS.getbool })
      .option('getint', { type: 'string', requiresArg: true, describe: DESCRIPTIONS.getint })
      .option('getfloat', { type: 'string', requiresArg: true, describe: DESCRIPTIONS.getfloat })
      .option('getlist', { type: 'string', requiresArg: true, describe: DESCRIPTIONS.getlist }),
  // Inside a project, its settings.ts sits between the command's defaults and -s (the CLI layers it).
  async handler({ args, settings, stdout }) {
    for (const option of Object.keys(GETTERS) as Array<keyof typeof GETTERS>) {
      const name = args[option];
      if (name !== undefined) stdout.write(`${GETTERS[option](settings, name)}\n`);
    }
  },
});
