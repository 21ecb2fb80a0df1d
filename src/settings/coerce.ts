/**
 * Reading setting values as a type, with Scrapy's rules (settings/__init__.py):
 * values from `-s` and config files are strings, so `getBool` takes
 * '0'/'1'/'true'/'false', `getInt` takes Python integer literals, `getList`
 * splits on commas and `getDict` parses JSON. Every failure is a
 * `SettingsError` naming the setting, the value, the expected type and where
 * the value came from.
 */
import { parseLogLevel, type LogLevel } from './log-levels.js';
import { describeValue } from './describe-value.js';
import type { SettingKind } from './schema.js';
import { SettingsError } from './settings-error.js';
import { isMap, isSet } from '../value-kinds.js';

/** Which setting a value belongs to and where it was set, e.g. `-s CONCURRENT_REQUESTS=abc`. */
export interface ValueOrigin {
  readonly name: string;
  readonly source: string;
}

const EXPECTED = {
  bool: 'a boolean (true/false, True/False or 1/0)',
  int: 'an integer',
  float: 'a number',
  string: 'a string',
  logLevel: 'a log level (DEBUG, INFO, WARNING, ERROR or CRITICAL)',
  list: 'a list (an array or a comma-separated string)',
  stringList: 'a list of strings (an array, a JSON array or a comma-separated string)',
  intList: 'a list of integers (an array, a JSON array or a comma-separated string)',
  stringListList: 'a list of lists of strings (an array, or a JSON array such as [[], ["a", "b"]])',
  dict: 'an object (or a string holding a JSON object)',
  nameOrClass: 'a name or a class',
} as const;

function fail(origin: ValueOrigin, expected: string, value: unknown): never {
  throw new SettingsError(
    `Setting ${origin.name} expects ${expected}, got ${describeValue(value)} (from ${origin.source})`,
  );
}

// Python's int() and float() literals: surrounding whitespace, a sign, and
// single underscores between digits are allowed.
const INT_LITERAL = /^[+-]?\d+(?:_\d+)*$/;
const DIGITS = String.raw`\d+(?:_\d+)*`;
const FLOAT_LITERAL = new RegExp(String.raw`^[+-]?(?:(?:${DIGITS})?\.${DIGITS}|${DIGITS}\.?)(?:[eE][+-]?${DIGITS})?$`);
const FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

function parseIntLiteral(text: string): number | undefined {
  const trimmed = text.trim();
  return INT_LITERAL.test(trimmed) ? Number(trimmed.replace(/_/g, '')) : undefined;
}

function parseFloatLiteral(text: string): number | undefined {
  const trimmed = text.trim();
  if (FLOAT_LITERAL.test(trimmed)) return Number(trimmed.replace(/_/g, ''));
  const special = FLOAT_SPECIAL.exec(trimmed);
  if (special === null) return undefined;
  if (special[2]?.toLowerCase() === 'nan') return Number.NaN;
  return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
}

/** Scrapy's getbool: `bool(int(value))`, else 'True'/'true'/'False'/'false'. */
export function toBool(value: unknown, origin: ValueOrigin): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value) !== 0;
  if (typeof value === 'string') {
    const asInt = parseIntLiteral(value);
    if (asInt !== undefined) return asInt !== 0;
    if (value === 'True' || value === 'true') return true;
    if (value === 'False' || value === 'false') return false;
  }
  return fail(origin, EXPECTED.bool, value);
}

/** Scrapy's getint: `int(value)`, which truncates floats and rejects '1.5'. */
export function toInt(value: unknown, origin: ValueOrigin): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const parsed = parseIntLiteral(value);
    if (parsed !== undefined) return parsed;
  }
  return fail(origin, EXPECTED.int, value);
}

/** Scrapy's getfloat: `float(value)`, including 'inf' and 'nan'. */
export function toFloat(value: unknown, origin: ValueOrigin): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const parsed = parseFloatLiteral(value);
    if (parsed !== undefined) return parsed;
  }
  return fail(origin, EXPECTED.float, value);
}

/** Scrapy's getlist: a copy of an array, or a string split on commas ('' gives ['']). */
export function toList(value: unknown, origin: ValueOrigin): unknown[] {
  if (typeof value === 'string') return value.split(',');
  if (Array.isArray(value)) return [...(value as unknown[])];
  if (isSet(value)) return [...value];
  return fail(origin, EXPECTED.list, value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isMap(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Scrapy's getdict: a shallow copy of an object, or a string parsed as a JSON object. */
export function toDict(value: unknown, origin: ValueOrigin): Record<string, unknown> {
  if (typeof value === 'string') {
    const parsed = parseJson(value);
    if (isPlainObject(parsed)) return parsed;
  } else if (isMap(value)) {
    return Object.fromEntries(value as Map<string, unknown>);
  } else if (isPlainObject(value)) {
    return { ...value };
  }
  return fail(origin, EXPECTED.dict, value);
}

// For list settings, a string that looks like a JSON array is read as one
// (like Scrapy's getdictorlist); any other string is split on commas, and ''
// is the empty list rather than Scrapy's [''].
function listItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    const parsed = parseJson(trimmed);
    return Array.isArray(parsed) ? (parsed as unknown[]) : undefined;
  }
  return value.split(',').map((item) => item.trim());
}

function toStringList(value: unknown, origin: ValueOrigin): string[] {
  const items = listItems(value);
  if (items === undefined || !items.every((item) => typeof item === 'string')) {
    return fail(origin, EXPECTED.stringList, value);
  }
  return items as string[];
}

function toIntList(value: unknown, origin: ValueOrigin): number[] {
  const items = listItems(value);
  const ints = items?.map((item) => {
    if (typeof item === 'number') return Number.isInteger(item) ? item : undefined;
    return typeof item === 'string' ? parseIntLiteral(item) : undefined;
  });
  if (ints === undefined || ints.some((item) => item === undefined)) return fail(origin, EXPECTED.intList, value);
  return ints as number[];
}

function toLogLevel(value: unknown, origin: ValueOrigin): LogLevel {
  return parseLogLevel(value) ?? fail(origin, EXPECTED.logLevel, value);
}

/**
 * Reads a stored value as its known setting's kind, so that `get()` returns
 * the schema's type even when the value arrived as a string from `-s`. Objects
 * and arrays already of the right shape are returned as stored (not copied).
 */
export function coerceToKind(kind: SettingKind, value: unknown, origin: ValueOrigin): unknown {
  switch (kind) {
    case 'bool':
      return toBool(value, origin);
    case 'int':
      return toInt(value, origin);
    case 'float':
      return toFloat(value, origin);
    case 'string':
      return typeof value === 'string' ? value : fail(origin, EXPECTED.string, value);
    case 'nullableString':
      if (value === null || value === undefined || value === '') return null;
      return typeof value === 'string' ? value : fail(origin, EXPECTED.string, value);
    case 'logLevel':
      return toLogLevel(value, origin);
    case 'stringList':
      return toStringList(value, origin);
    case 'nullableStringList':
      if (value === null || value === undefined || value === '') return null;
      return toStringList(value, origin);
    case 'intList':
      return toIntList(value, origin);
    case 'stringListList': {
      // PROXY_TIERS: lists of proxy URLs; on the command line, the same as JSON.
      const parsed = typeof value === 'string' ? (value.trim() === '' ? [] : parseJson(value)) : value;
      const ok = Array.isArray(parsed) && parsed.every((inner) => Array.isArray(inner) && inner.every((item) => typeof item === 'string'));
      return ok ? parsed : fail(origin, EXPECTED.stringListList, value);
    }
    case 'dict':
      return isPlainObject(value) ? value : toDict(value, origin);
    case 'nameOrClass':
      // A built-in component's name (what -s gives) or a class given in code.
      return typeof value === 'string' || typeof value === 'function' ? value : fail(origin, EXPECTED.nameOrClass, value);
  }
}
