/**
 * What an item's values become before an exporter writes them. Scrapy's
 * exporters see dicts, lists, strings, numbers, booleans and None; a
 * TypeScript spider yields plain objects, class instances, arrays, Sets,
 * Maps, Dates and `undefined`. This module maps the second set onto the
 * first, once, so that the four exporters only deal with Python's shapes.
 */
import { types } from 'node:util';
import { isDate, isMap, isSet } from '../value-kinds.js';

/** A value in Python's terms: `null` is None, an `ExportObject` a dict, an array a list. */
export type ExportValue = string | number | bigint | boolean | null | ExportValue[] | ExportObject;
export interface ExportObject {
  [key: string]: ExportValue;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * A Date as ScrapyJSONEncoder writes a datetime (`%Y-%m-%d %H:%M:%S`), in
 * local time like the naive `datetime.now()` a Scrapy spider would store.
 */
export function exportDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * The fields of an item: own enumerable properties, so that a plain object
 * and an instance of a class from items.ts export alike. A field that holds
 * `undefined` is a declared but unset field (`tag?: string` with class
 * fields): `includeUnset` keeps it, as Scrapy's `field_names()` keeps a
 * declared Item field that has no value, while `keys()` does not.
 */
export function itemFieldNames(item: unknown, includeUnset: boolean): string[] {
  if (item === null || typeof item !== 'object') return [];
  const record = item as Record<string, unknown>;
  return Object.keys(record).filter((key) => typeof record[key] !== 'function' && (includeUnset || record[key] !== undefined));
}

export function hasField(item: unknown, name: string): boolean {
  return item !== null && typeof item === 'object' && Object.hasOwn(item, name) && (item as Record<string, unknown>)[name] !== undefined;
}

/** An item that contains itself: no feed can write it (JSON would never end), so every exporter refuses it alike. */
export class CircularReferenceError extends Error {
  constructor(readonly path: string) {
    super(`circular reference at ${path}`);
    this.name = 'CircularReferenceError';
  }
}

/**
 * One value in Python's shapes: Sets and arrays become lists, Maps and objects dicts, Dates strings.
 * `field` names the value in a CircularReferenceError's path (`item.a.b`).
 */
export function toExportValue(value: unknown, field = 'value'): ExportValue {
  try {
    return convert(value, 0, null);
  } catch (error) {
    if (error !== TOO_DEEP) throw error;
    // Deeper than any real item: converted again, now keeping the path, to find the cycle (or finish a deep value).
    return convert(value, 0, { values: [], path: [`item.${field}`] });
  }
}

// Tracking the containers on the way down made every item 4× slower (0.6 → 2.5 µs for a quotes item);
// a depth count costs nothing, and only a value this deep pays for the tracking.
const UNTRACKED_DEPTH = 100;
const TOO_DEEP = Symbol('too deep');

/** The containers being converted, outermost first, with the path to each: a cycle is a value already among them. */
interface Ancestors {
  values: object[];
  path: string[];
}

function convert(value: unknown, depth: number, ancestors: Ancestors | null): ExportValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return value;
    case 'function':
    case 'symbol':
      return String(value);
  }
  // Realm-independent checks: an item may be built in the shell's console, whose Date and Map are not ours.
  if (isDate(value)) return exportDate(value);
  if (types.isUint8Array(value)) return Buffer.from(value).toString('utf8');
  if (ancestors === null) {
    if (depth > UNTRACKED_DEPTH) throw TOO_DEEP;
    return convertContainer(value, depth, null);
  }
  if (ancestors.values.includes(value)) throw new CircularReferenceError(ancestors.path.join(''));
  ancestors.values.push(value);
  try {
    return convertContainer(value, depth, ancestors);
  } finally {
    ancestors.values.pop();
  }
}

function child(key: string, value: unknown, depth: number, ancestors: Ancestors | null): ExportValue {
  if (ancestors === null) return convert(value, depth + 1, null);
  ancestors.path.push(key);
  try {
    return convert(value, depth + 1, ancestors);
  } finally {
    ancestors.path.pop();
  }
}

function convertContainer(value: object, depth: number, ancestors: Ancestors | null): ExportValue {
  if (Array.isArray(value) || isSet(value)) {
    const out: ExportValue[] = [];
    let index = 0;
    for (const inner of value as Iterable<unknown>) out.push(child(ancestors === null ? '' : `[${index++}]`, inner, depth, ancestors));
    return out;
  }
  if (isMap(value)) {
    const out: ExportObject = {};
    for (const [key, inner] of value) setField(out, String(key), child(ancestors === null ? '' : `.${String(key)}`, inner, depth, ancestors));
    return out;
  }
  // Objects that say how they serialize (URL, Decimal-like classes) are taken at their word.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return child('', (value as { toJSON(): unknown }).toJSON(), depth, ancestors);
  const out: ExportObject = {};
  for (const key of itemFieldNames(value, false)) setField(out, key, child(ancestors === null ? '' : `.${key}`, (value as Record<string, unknown>)[key], depth, ancestors));
  return out;
}

/**
 * `out[key] = value`, except that a `__proto__` key (`JSON.parse('{"__proto__": 1}')` has one) becomes an own
 * field instead of setting the object's prototype, which dropped it from every feed (spec/fuzz/feeds.spec.ts).
 */
function setField(out: ExportObject, key: string, value: ExportValue): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Is this a dict (something with `.items()` in XmlItemExporter's test)? */
export function isExportObject(value: ExportValue): value is ExportObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
