/**
 * Python's text forms of exported values: `str()` (XML, CSV cells) and
 * `repr()` of lists and dicts (a CSV cell that holds one). Users diff
 * seine's feeds against Scrapy's, so the bytes are Python's: `True`/`None`,
 * `1.5` but `3` for a whole number (JavaScript has one number type: a safe
 * integer is written as an int). It stays with the feeds because it reads
 * their ExportValue; the JSON exporters' `json.dumps` is in src/python/.
 */
import { pythonNumberRepr } from '../python/repr.js';
import { pythonRepr } from '../python/str-repr.js';
import { isExportObject, type ExportValue } from './export-value.js';

/** `str(value)`: how XmlItemExporter writes a scalar and csv.writer a cell. */
export function pythonStr(value: ExportValue): string {
  if (typeof value === 'string') return value;
  return pythonValueRepr(value);
}

/** `repr(value)`: a list or dict in a CSV cell reads `[1, 2]`, `{'k': 'v'}`. */
export function pythonValueRepr(value: ExportValue): string {
  if (value === null) return 'None';
  if (typeof value === 'string') return pythonRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
    return typeof value === 'bigint' ? String(value) : pythonNumberRepr(value);
  }
  if (Array.isArray(value)) return '[' + value.map(pythonValueRepr).join(', ') + ']';
  if (isExportObject(value)) return '{' + Object.entries(value).map(([k, v]) => `${pythonRepr(k)}: ${pythonValueRepr(v)}`).join(', ') + '}';
  return String(value);
}
