/**
 * HTTP dates (RFC 1123, RFC 850 and asctime forms) as Python's
 * email.utils.parsedate_tz reads them — what Scrapy's `rfc1123_to_epoch`
 * uses for the HTTP cache — shared by the cache policy and Retry-After.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// parsedate_tz's named zones, in hours from UTC.
const ZONES: Record<string, number> = {
  ut: 0, utc: 0, gmt: 0, z: 0,
  ast: -4, adt: -3, est: -5, edt: -4, cst: -6, cdt: -5, mst: -7, mdt: -6, pst: -8, pdt: -7,
};

// `06 Nov 1994 08:49:37 GMT` (RFC 1123) and `06-Nov-94 08:49:37 GMT` (RFC 850), once the weekday is gone.
const DAY_FIRST = /^(\d{1,2})[ -]([a-z]{3})[a-z]*[ -](\d{2}|\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s+(\S+))?$/i;
// `Nov  6 08:49:37 1994` (asctime), once the weekday is gone.
const MONTH_FIRST = /^([a-z]{3})[a-z]*\s+(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s+(\d{4})$/i;

function zoneOffsetSeconds(zone: string | undefined): number | null {
  if (zone === undefined) return 0; // HTTP dates are GMT
  const numeric = /^([+-])(\d{2})(\d{2})$/.exec(zone);
  if (numeric !== null) return (numeric[1] === '-' ? -1 : 1) * (Number(numeric[2]) * 3600 + Number(numeric[3]) * 60);
  const hours = ZONES[zone.toLowerCase()];
  return hours === undefined ? null : hours * 3600;
}

function epoch(year: number, month: string, day: number, hour: number, minute: number, second: number, offset: number): number | null {
  const monthIndex = MONTHS.indexOf(month.toLowerCase());
  if (monthIndex === -1 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 61) return null;
  // Python's rule for two-digit years: 69–99 are 19xx, 00–68 are 20xx.
  const fullYear = year < 100 ? (year > 68 ? year + 1900 : year + 2000) : year;
  return Date.UTC(fullYear, monthIndex, day, hour, minute, second) / 1000 - offset;
}

/**
 * An HTTP date (RFC 1123, RFC 850 or asctime form) as seconds since the
 * epoch, or null when it is not one (`Expires: 0`, `-1`, garbage).
 */
export function parseHttpDate(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const value = text.trim().replace(/^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+/i, '');
  const dayFirst = DAY_FIRST.exec(value);
  if (dayFirst !== null) {
    const offset = zoneOffsetSeconds(dayFirst[7]);
    if (offset === null) return null;
    return epoch(Number(dayFirst[3]), dayFirst[2]!, Number(dayFirst[1]), Number(dayFirst[4]), Number(dayFirst[5]), Number(dayFirst[6] ?? 0), offset);
  }
  const monthFirst = MONTH_FIRST.exec(value);
  if (monthFirst !== null) {
    return epoch(Number(monthFirst[6]), monthFirst[1]!, Number(monthFirst[2]), Number(monthFirst[3]), Number(monthFirst[4]), Number(monthFirst[5] ?? 0), 0);
  }
  return null;
}

/** `Sun, 06 Nov 1994 08:49:37 GMT` for a time in ms (Python's `formatdate(usegmt=True)`). */
export function formatHttpDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toUTCString();
}
