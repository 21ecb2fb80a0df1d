/**
 * A feed path's placeholders, Python's %-formatting as Scrapy applies it:
 * `%(name)s` (any spider attribute), `%(time)s`, `%(batch_time)s`,
 * `%(batch_id)d` with flags and width (`%(batch_id)05d`), `%%`.
 */
import { FeedConfigError } from './feed-errors.js';
import { pythonStr } from '../python/value-repr.js';
import { toExportValue } from './export-value.js';

const isoNoColons = (date: Date, withFraction: boolean): string => {
  const iso = date.toISOString().slice(0, withFraction ? 23 : 19).replaceAll(':', '-');
  // Python's isoformat() has microseconds, and omits them when they are 0.
  if (!withFraction) return iso;
  return date.getUTCMilliseconds() === 0 ? iso.slice(0, 19) : iso + '000';
};

/** Scrapy's uri params: the spider's attributes, `time`, `batch_time` (UTC, `:` → `-`), `batch_id`. */
export function uriParams(spider: object, batchId: number, now = new Date()): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const key of Object.keys(spider)) params[key] = (spider as Record<string, unknown>)[key];
  params['name'] = (spider as { name?: unknown }).name;
  params['time'] = isoNoColons(now, false);
  params['batch_time'] = isoNoColons(now, true);
  params['batch_id'] = batchId;
  return params;
}

const PLACEHOLDER = /%(?:\(([^)]*)\))?([-#0 +]*)(\d*)([sdi%])/g;

/** The params seine makes itself (times, batch numbers): they never hold a path separator. */
const OWN_PARAMS = new Set(['time', 'batch_time', 'batch_id']);

/** Why a value from a spider argument or attribute cannot go into a feed path, or null when it can. */
function pathValueProblem(text: string): string | null {
  if (/[/\\]/.test(text)) return "holds a path separator ('/' or '\\')";
  if (text === '.' || text === '..') return `is '${text}'`;
  if (text.includes('\0')) return 'holds a NUL character';
  return null;
}

/** The `..` segments of a path (`/` or `\` separated). */
const parentSegments = (path: string): number => path.split(/[/\\]/).filter((segment) => segment === '..').length;

/**
 * Expands a feed path's placeholders. Values from the spider's arguments and
 * attributes (`-a tag=…`, `%(tag)s`) fill one file name: one that holds `/`
 * or `\`, or is `.` or `..`, is a FeedConfigError rather than a file
 * written in another folder (docs/security.md, "Paths"); so is a path whose
 * values together make a `..` segment the template does not have.
 */
export function expandFeedUri(template: string, params: Record<string, unknown>): string {
  const expanded = expandPlaceholders(template, params);
  if (parentSegments(expanded) > parentSegments(template.replace(PLACEHOLDER, ''))) {
    throw new FeedConfigError(
      `The feed path '${template}' becomes '${expanded}', whose values add a '..' folder: ` +
        'values from spider arguments and attributes must not lead out of the folder the feed path names',
    );
  }
  return expanded;
}

function expandPlaceholders(template: string, params: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (whole, key: string | undefined, flags: string, width: string, type: string) => {
    if (type === '%') return '%';
    if (key === undefined) throw new FeedConfigError(`The feed path '${template}' has a bare ${whole}: name the value, e.g. %(batch_id)d, or write %% for a percent sign`);
    if (!(key in params)) {
      throw new FeedConfigError(`The feed path '${template}' uses %(${key})s, but the spider has no attribute '${key}': use %(name)s, %(time)s, %(batch_time)s, %(batch_id)d or a spider attribute`);
    }
    const value = params[key];
    let text: string;
    if (type === 's') {
      text = pythonStr(toExportValue(value));
      const problem = OWN_PARAMS.has(key) ? null : pathValueProblem(text);
      if (problem !== null) {
        throw new FeedConfigError(
          `The feed path '${template}' would take %(${key})s = '${text}', which ${problem}: a value from a spider argument or attribute ` +
            'names one file, not a folder (it would write outside the folder the feed path names); pass a value without it, or write the folders in the feed path itself',
        );
      }
    } else {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new FeedConfigError(`The feed path '${template}' formats ${key} as a number, but its value is ${String(value)}: use %(${key})s`);
      text = String(Math.trunc(Math.abs(n)));
      const sign = n < 0 ? '-' : flags.includes('+') ? '+' : '';
      const size = Number(width || 0) - sign.length;
      text = sign + (flags.includes('0') && !flags.includes('-') ? text.padStart(size, '0') : text);
    }
    const size = Number(width || 0);
    return flags.includes('-') ? text.padEnd(size) : text.padStart(size);
  });
}

/** Does the path tell batches apart? (Scrapy: `%(batch_time)s` or `%(batch_id)`.) */
export function hasBatchPlaceholder(template: string): boolean {
  return /%\(batch_time\)s|%\(batch_id\)/.test(template);
}
