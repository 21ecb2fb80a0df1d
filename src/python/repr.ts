/**
 * Python's repr() of numbers and datetimes, and its len(): the stats dump is
 * Scrapy's `pprint.pformat(stats)` and the feeds write numbers as Python
 * does, and users compare both with Scrapy's.
 */
import { pythonFloatRepr } from './float-repr.js';

/**
 * `datetime.datetime(2024, 1, 2, 3, 4, 5, 678000)` in UTC: Scrapy 2.8 stores
 * `datetime.utcnow()`, a naive UTC datetime. Python omits a zero
 * microsecond, and the second too when both are zero.
 */
export function pythonDatetimeRepr(date: Date): string {
  if (Number.isNaN(date.getTime())) return 'None';
  const fields = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()];
  const second = date.getUTCSeconds();
  const microsecond = date.getUTCMilliseconds() * 1000;
  if (second !== 0 || microsecond !== 0) fields.push(second);
  if (microsecond !== 0) fields.push(microsecond);
  return `datetime.datetime(${fields.join(', ')})`;
}

/**
 * A number as Python prints it. JavaScript has one number type, so a safe
 * integer prints as an int (`3`) unless `asFloat` says the stat is a float
 * (`3.0`); any other value prints as a Python float (`0.1`, `1e-05`,
 * `1e+16`: beyond 2**53 a number is no exact count, so it was a float).
 */
export function pythonNumberRepr(value: number, asFloat = false): string {
  return !asFloat && Number.isSafeInteger(value) ? String(value) : pythonFloatRepr(value);
}

/** Length as Python's len() counts it: code points, not UTF-16 units. */
export function pythonLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}
