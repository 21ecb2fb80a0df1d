/**
 * Python's text forms of exported values: `json.dumps` (Scrapy's JSON and
 * JSON Lines exporters), `str()` (XML, CSV cells) and `repr()` of lists and
 * dicts (a CSV cell that holds one). Users diff seine's feeds against
 * Scrapy's, so the bytes are Python's: `", "` and `": "` separators,
 * `\u00e9` escapes, `True`/`None`, `1.5` but `3` for a whole number
 * (JavaScript has one number type: a safe integer is written as an int).
 */
import { pythonNumberRepr, pythonStrRepr } from '../stats/python-repr.js';
import { isExportObject, type ExportValue } from './export-value.js';

export interface JsonDumpOptions {
  /** Escape everything outside printable ASCII (Python's default; Scrapy's when no encoding is set). */
  ensureAscii: boolean;
  /** Pretty-print with this many spaces per level; null writes one line. */
  indent: number | null;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
const u4 = (code: number): string => '\\u' + code.toString(16).padStart(4, '0');

/** A JSON string literal as `json.dumps` writes it (astral characters as surrogate pairs when ASCII-only). */
export function jsonString(text: string, ensureAscii: boolean): string {
  const pattern = ensureAscii ? /[\\"]|[^ -~]/g : /[\x00-\x1f\\"]/g;
  return '"' + text.replace(pattern, (ch) => SHORT_ESCAPES[ch] ?? u4(ch.charCodeAt(0))) + '"';
}

function jsonNumber(value: number | bigint): string {
  if (typeof value === 'bigint') return String(value);
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  return pythonNumberRepr(value);
}

/** `json.dumps(value, ensure_ascii=…, indent=…)`. */
export function pythonJsonDumps(value: ExportValue, options: JsonDumpOptions, level = 0): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return jsonString(value, options.ensureAscii);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'bigint') return jsonNumber(value);
  const parts = Array.isArray(value)
    ? value.map((inner) => pythonJsonDumps(inner, options, level + 1))
    : Object.entries(value).map(([key, inner]) => `${jsonString(key, options.ensureAscii)}: ${pythonJsonDumps(inner, options, level + 1)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (parts.length === 0) return open + close;
  if (options.indent === null) return open + parts.join(', ') + close;
  const inner = '\n' + ' '.repeat(options.indent * (level + 1));
  return open + inner + parts.join(',' + inner) + '\n' + ' '.repeat(options.indent * level) + close;
}

/** `str(value)`: how XmlItemExporter writes a scalar and csv.writer a cell. */
export function pythonStr(value: ExportValue): string {
  if (typeof value === 'string') return value;
  return pythonValueRepr(value);
}

/** `repr(value)`: a list or dict in a CSV cell reads `[1, 2]`, `{'k': 'v'}`. */
export function pythonValueRepr(value: ExportValue): string {
  if (value === null) return 'None';
  if (typeof value === 'string') return pythonStrRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
    return jsonNumber(value);
  }
  if (Array.isArray(value)) return '[' + value.map(pythonValueRepr).join(', ') + ']';
  if (isExportObject(value)) return '{' + Object.entries(value).map(([k, v]) => `${pythonStrRepr(k)}: ${pythonValueRepr(v)}`).join(', ') + '}';
  return String(value);
}
