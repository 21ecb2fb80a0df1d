import { DEFAULT_SETTINGS } from './default-settings.js';
import { SETTINGS_PRIORITIES } from './priorities.js';
import type { Settings } from './settings.js';

/**
 * Settings seine does not know, reported rather than silently ignored: a
 * name given with `-s` that is none of seine's, and a name from anywhere
 * that is one or two letters away from one of seine's (a typo such as
 * CONCURENT_REQUESTS). A project's own names (MONGO_URI for a pipeline of
 * its own, as in Scrapy's docs) are read by its components, so they are
 * reported only when they come from `-s`, where a typo is likeliest.
 */

const KNOWN = Object.keys(DEFAULT_SETTINGS);

/** Levenshtein distance, given up above `limit` (the names are short: this stays cheap). */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, current[j]!);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** The known setting closest to `name`, when it is a likely typo of it. */
export function closestSetting(name: string): string | null {
  const upper = name.toUpperCase();
  const limit = upper.length >= 6 ? 2 : 1;
  let found: string | null = null;
  let bestDistance = limit + 1;
  for (const known of KNOWN) {
    const d = distance(upper, known, limit);
    if (d < bestDistance) {
      bestDistance = d;
      found = known;
    }
  }
  return found;
}

/** One warning line per unknown name worth reporting, in name order. */
export function unknownSettingWarnings(settings: Settings): string[] {
  const lines: string[] = [];
  for (const name of settings.names().sort()) {
    if (Object.hasOwn(DEFAULT_SETTINGS, name)) continue;
    const source = settings.getSource(name);
    const from = source === undefined ? '' : ` (from ${source})`;
    const guess = closestSetting(name);
    if (guess !== null) {
      lines.push(`Unknown setting ${name}${from}: did you mean ${guess}? seine ignores ${name}`);
    } else if (settings.getPriority(name) === SETTINGS_PRIORITIES.cmdline) {
      lines.push(`Unknown setting ${name}${from}: seine has no such setting and ignores it (your own components can still read it); see docs/settings.md for the list`);
    }
  }
  return lines;
}
