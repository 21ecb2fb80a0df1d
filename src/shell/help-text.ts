/**
 * The `[s]` lines the shell prints on start and for `shelp()`: the objects
 * that are set (as Scrapy lists only the relevant ones) and the shortcuts.
 * Inside inspectResponse the fetch lines are left out: fetch is not
 * available there.
 */
import { inspect } from 'node:util';

export interface HelpVars {
  readonly crawler: unknown;
  readonly item: unknown;
  readonly request: unknown;
  readonly response: unknown;
  readonly settings: unknown;
  readonly spider: unknown;
}

const ORDER: readonly (keyof HelpVars)[] = ['crawler', 'item', 'request', 'response', 'settings', 'spider'];

export function helpText(vars: HelpVars, options: { canFetch: boolean }): string {
  const lines = ['Available seine objects:', '  seine      the seine module (seine.Request, seine.Selector, seine.Spider, …)'];
  for (const name of ORDER) {
    const value = vars[name];
    if (value === null || value === undefined) continue;
    lines.push(`  ${name.padEnd(10)} ${inspect(value, { depth: 0, breakLength: Infinity })}`);
  }
  lines.push('Useful shortcuts:');
  if (options.canFetch) {
    lines.push('  fetch(url[, { redirect: false }])  Fetch URL and update local objects (redirects are followed unless redirect: false)');
    lines.push('  fetch(request)                    Fetch a seine.Request and update local objects');
    lines.push('  fetch(url, { playwright: true })  Fetch URL rendered in a browser (Chromium)');
  }
  lines.push('  shelp()           Shell help (print this help)');
  lines.push('  view(response)    View response in a browser');
  lines.push('  quit(), Ctrl-D    Leave the shell');
  return lines.map((line) => `[s] ${line}`).join('\n');
}
