/**
 * Reading the headers RFC2616Policy decides by: Cache-Control directives as
 * Scrapy's `parse_cachecontrol` reads them (HTTP dates: src/http/http-date.ts).
 */
import type { Headers } from '../../http/headers.js';

/**
 * Cache-Control directives: lower-cased name → value, or null for a
 * directive without `=` (`no-cache`). Every Cache-Control header counts,
 * as one comma-separated list (RFC 9110 §5.3); Scrapy read only the last.
 */
export function parseCacheControl(values: readonly string[]): Map<string, string | null> {
  const directives = new Map<string, string | null>();
  for (const directive of values.join(',').split(',')) {
    const trimmed = directive.trim();
    const eq = trimmed.indexOf('=');
    const key = (eq === -1 ? trimmed : trimmed.slice(0, eq)).toLowerCase();
    if (key !== '') directives.set(key, eq === -1 ? null : trimmed.slice(eq + 1));
  }
  return directives;
}

/** A header's last value, as Scrapy's `headers[name]` reads it, or null. */
export function lastHeader(headers: Headers, name: string): string | null {
  return headers.getList(name).at(-1) ?? null;
}

/** Python's `int()` of a header or directive value: digits with an optional sign and surrounding spaces. */
export function pythonInt(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const match = /^\s*([+-]?\d+)\s*$/.exec(text);
  return match === null ? null : Number(match[1]);
}
