/**
 * What `seine parse` prints, laid out as Scrapy's parse command prints it:
 * a header per level (or one status header), then the items and the
 * requests. Values are printed the way a TypeScript user reads them in a
 * console (util.inspect; Requests read `<GET url>`), where Scrapy
 * pretty-prints Python values.
 */
import { inspect } from 'node:util';
import type { Request } from '../http/request.js';
import type { ParseResults } from './parse-levels.js';

export interface ParseOutputOptions {
  /** One block per depth level. */
  readonly verbose?: boolean;
  readonly noItems?: boolean;
  readonly noLinks?: boolean;
  /** ANSI colours (a terminal, without --nocolour). */
  readonly colors?: boolean;
}

function show(values: readonly unknown[], colors: boolean): string {
  return inspect(values, { depth: null, colors, maxArrayLength: Infinity, maxStringLength: Infinity }) + '\n';
}

// Python's print("# Scraped Items ", "-" * 60): the two arguments are joined by a space.
function itemsBlock(items: readonly unknown[], colors: boolean): string {
  return `# Scraped Items  ${'-'.repeat(60)}\n${show(items, colors)}`;
}

function requestsBlock(requests: readonly Request[], colors: boolean): string {
  return `# Requests  ${'-'.repeat(65)}\n${show(requests, colors)}`;
}

export function formatParseResults(results: ParseResults, options: ParseOutputOptions = {}): string {
  const colors = options.colors === true;
  const maxLevel = Math.max(0, ...results.items.keys(), ...results.requests.keys());
  let out = '';
  if (options.verbose === true) {
    for (let level = 1; level <= maxLevel; level++) {
      out += `\n>>> DEPTH LEVEL: ${level} <<<\n`;
      if (options.noItems !== true) out += itemsBlock(results.items.get(level) ?? [], colors);
      if (options.noLinks !== true) out += requestsBlock(results.requests.get(level) ?? [], colors);
    }
    return out;
  }
  out += `\n>>> STATUS DEPTH LEVEL ${maxLevel} <<<\n`;
  // Every level's items, and the requests of the deepest level parsed: the ones not followed.
  if (options.noItems !== true) out += itemsBlock([...results.items.values()].flat(), colors);
  if (options.noLinks !== true) {
    const last = Math.max(0, ...results.requests.keys());
    out += requestsBlock(results.requests.get(last) ?? [], colors);
  }
  return out;
}
