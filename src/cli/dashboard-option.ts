/**
 * `--dashboard [PORT]` of `seine crawl` and `seine runspider`: the crawl's
 * live dashboard (src/dashboard/), as DASHBOARD_ENABLED and DASHBOARD_PORT
 * at the command line's priority. Without PORT, any free port.
 */
import type { Argv } from 'yargs';
import type { Settings } from '../settings/settings.js';
import { UsageError } from './usage-error.js';

export interface DashboardOptionArgs {
  dashboard?: string;
}

export function withDashboardOption<T>(parser: Argv<T>): Argv<T> {
  return parser.option('dashboard', {
    type: 'string',
    describe: 'serve a live dashboard of the crawl on 127.0.0.1:PORT (any free port without PORT; the URL is logged)',
  }) as unknown as Argv<T>;
}

export function applyDashboardOption(args: DashboardOptionArgs, settings: Settings, command: string): void {
  const value = args.dashboard;
  if (value === undefined) return;
  const port = value === '' ? 0 : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--dashboard takes a port number (0-65535), got '${value}': write --dashboard 8080, or --dashboard alone for any free port`, { command });
  }
  settings.set('DASHBOARD_ENABLED', true, 'cmdline', '--dashboard');
  settings.set('DASHBOARD_PORT', port, 'cmdline', '--dashboard');
}
