/**
 * Python's `str()` and `repr()` of a value: how the feeds write one (XML,
 * CSV cells; a list or dict in a CSV cell). Users diff seine's feeds against
 * Scrapy's, so the bytes are Python's: `True`/`None`, `1.5` but `3` for a
 * whole number (JavaScript has one number type: a safe integer is written as
 * an int).
 */
import { pythonNumberRepr } from './repr.js';
import { pythonRepr } from './str-repr.js';

/** A value in Python's terms: `null` is None, a plain object a dict, an array a list (the feeds' ExportValue is one). */
export type PythonValue = string | number | bigint | boolean | null | PythonValue[] | PythonDict;
export interface PythonDict {
  [key: string]: PythonValue;
}

const isDict = (value: PythonValue): value is PythonDict => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `str(value)`: how XmlItemExporter writes a scalar and csv.writer a cell. */
export function pythonStr(value: PythonValue): string {
  if (typeof value === 'string') return value;
  return pythonValueRepr(value);
}

/** `repr(value)`: a list or dict in a CSV cell reads `[1, 2]`, `{'k': 'v'}`. */
export function pythonValueRepr(value: PythonValue): string {
  if (value === null) return 'None';
  if (typeof value === 'string') return pythonRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
    return typeof value === 'bigint' ? String(value) : pythonNumberRepr(value);
  }
  if (Array.isArray(value)) return '[' + value.map(pythonValueRepr).join(', ') + ']';
  if (isDict(value)) return '{' + Object.entries(value).map(([k, v]) => `${pythonRepr(k)}: ${pythonValueRepr(v)}`).join(', ') + '}';
  return String(value);
}
