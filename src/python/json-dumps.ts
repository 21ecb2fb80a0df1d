/**
 * Python's `json.dumps`, written once for the two places whose bytes users
 * compare with Scrapy's: JsonRequest bodies (`json.dumps(data,
 * sort_keys=True)`, so servers that sign or compare bodies see what the
 * ported spider sent) and the JSON / JSON Lines feeds (`ensure_ascii`,
 * `indent`). Python's separators (`", "`, `": "`), its escapes (`\u00e9`,
 * surrogate pairs above U+FFFF), and JSON.stringify's rules for JavaScript
 * values (toJSON, undefined members left out, undefined in an array is
 * null).
 */
import { pythonNumberRepr } from './repr.js';

export interface JsonDumpsOptions {
  /** `sort_keys` (default false). */
  sortKeys?: boolean;
  /** `ensure_ascii`: escape everything outside printable ASCII (default true, as Python's). */
  ensureAscii?: boolean;
  /** `indent`: this many spaces per level; null (the default) writes one line. */
  indent?: number | null;
  /** How a number is written (default: Python's repr, and `NaN`/`Infinity` as `allow_nan` writes them). */
  number?: (value: number) => string;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
const u4 = (code: number): string => '\\u' + code.toString(16).padStart(4, '0');

/** A JSON string literal as `json.dumps` writes it (astral characters as surrogate pairs when ASCII-only). */
export function jsonString(text: string, ensureAscii: boolean): string {
  // Most strings (an item's keys, most values) need no escape: a test that allocates nothing, before a replace that does.
  if (!(ensureAscii ? ASCII_ESCAPED : ESCAPED).test(text)) return '"' + text + '"';
  const pattern = ensureAscii ? /[\\"]|[^ -~]/g : /[\x00-\x1f\\"]/g;
  return '"' + text.replace(pattern, (ch) => SHORT_ESCAPES[ch] ?? u4(ch.charCodeAt(0))) + '"';
}

const ASCII_ESCAPED = /[\\"]|[^ -~]/;
const ESCAPED = /[\x00-\x1f\\"]/;

/** A number as `json.dumps` writes a Python value: int or float repr, and NaN/Infinity (allow_nan). */
export function pythonJsonNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  return pythonNumberRepr(value);
}

interface Resolved {
  sortKeys: boolean;
  ensureAscii: boolean;
  indent: number | null;
  number: (value: number) => string;
}

/** `json.dumps(value, sort_keys=…, ensure_ascii=…, indent=…)`. */
export function pythonJsonDumps(value: unknown, options: JsonDumpsOptions = {}): string {
  const resolved: Resolved = {
    sortKeys: options.sortKeys ?? false,
    ensureAscii: options.ensureAscii ?? true,
    indent: options.indent ?? null,
    number: options.number ?? pythonJsonNumber,
  };
  return write(value, '', 0, resolved) ?? 'null';
}

function write(value: unknown, key: string, level: number, options: Resolved): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return jsonString(value, options.ensureAscii);
    case 'number':
      return options.number(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      break;
  }
  const isArray = Array.isArray(value);
  let parts: string[];
  if (isArray) {
    parts = (value as unknown[]).map((item, index) => write(item, String(index), level + 1, options) ?? 'null');
  } else {
    parts = [];
    const keys = Object.keys(value as object);
    if (options.sortKeys) keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of keys) {
      const text = write((value as Record<string, unknown>)[name], name, level + 1, options);
      if (text !== undefined) parts.push(`${jsonString(name, options.ensureAscii)}: ${text}`);
    }
  }
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (parts.length === 0) return open + close;
  if (options.indent === null) return open + parts.join(', ') + close;
  const inner = '\n' + ' '.repeat(options.indent * (level + 1));
  return open + inner + parts.join(',' + inner) + '\n' + ' '.repeat(options.indent * level) + close;
}
