/**
 * Python's `pprint.pformat()` (3.11, width 80, sorted dict keys) for the
 * values stats hold: dicts, lists, strings, numbers, booleans, None and
 * datetimes. The stats dump must read like Scrapy's, line breaks included:
 * a dict that fits in 80 columns stays on one line, a longer one puts each
 * key on its own line, and a long string value is split at spaces into
 * adjacent literals.
 */
import { pythonDatetimeRepr, pythonLength, pythonNumberRepr } from '../python/repr.js';
import { pythonRepr } from '../python/str-repr.js';
import { isDate, isError, isPlainObject } from '../value-kinds.js';

export interface PformatOptions {
  /** pprint's width; default 80. */
  readonly width?: number;
  /** Dict keys whose numbers are Python floats (`12.0`, not `12`). */
  readonly floatKeys?: Iterable<string>;
}

type Output = string[];

// A stat may be set from the shell's console, whose objects come from another realm.
const isDict = isPlainObject;

function sortedEntries(dict: Record<string, unknown>): [string, unknown][] {
  return Object.entries(dict).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

// str.splitlines(keepends=True): every line boundary Python knows.
const LINES = /[^\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029])?/gu;

function splitLines(text: string): string[] {
  const lines = text.match(LINES) ?? [];
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

class PrettyPrinter {
  constructor(
    private readonly width: number,
    private readonly floatKeys: ReadonlySet<string>,
  ) {}

  /** Python's `_safe_repr`: the one-line form. */
  repr(value: unknown, asFloat = false): string {
    switch (typeof value) {
      case 'string':
        return pythonRepr(value);
      case 'number':
        return pythonNumberRepr(value, asFloat);
      case 'bigint':
        return value.toString();
      case 'boolean':
        return value ? 'True' : 'False';
      case 'undefined':
        return 'None';
      default:
        break;
    }
    if (value === null) return 'None';
    if (isDate(value)) return pythonDatetimeRepr(value);
    if (Array.isArray(value)) return `[${value.map((item) => this.repr(item)).join(', ')}]`;
    if (isDict(value)) {
      const parts = sortedEntries(value).map(([key, item]) => `${pythonRepr(key)}: ${this.repr(item, this.floatKeys.has(key))}`);
      return `{${parts.join(', ')}}`;
    }
    if (isError(value)) return `${value.constructor.name}(${pythonRepr(value.message)})`;
    if (typeof value === 'function') return `<function ${value.name}>`;
    const text = String(value);
    return text === '[object Object]' ? `<${(value as object).constructor?.name ?? 'object'} object>` : text;
  }

  /** Python's `PrettyPrinter._format`. */
  format(value: unknown, out: Output, indent: number, allowance: number, level: number, asFloat = false): void {
    const rep = this.repr(value, asFloat);
    if (pythonLength(rep) > this.width - indent - allowance) {
      if (isDict(value)) return this.#dict(value, out, indent, allowance, level + 1);
      if (Array.isArray(value)) return this.#list(value, out, indent, allowance, level + 1);
      if (typeof value === 'string') return this.#str(value, out, indent, allowance, level + 1);
    }
    out.push(rep);
  }

  #dict(dict: Record<string, unknown>, out: Output, indent: number, allowance: number, level: number): void {
    out.push('{');
    const entries = sortedEntries(dict);
    if (entries.length > 0) {
      const inner = indent + 1;
      const delimiter = ',\n' + ' '.repeat(inner);
      entries.forEach(([key, item], i) => {
        const last = i === entries.length - 1;
        const rep = pythonRepr(key);
        out.push(rep, ': ');
        this.format(item, out, inner + pythonLength(rep) + 2, last ? allowance + 1 : 1, level, this.floatKeys.has(key));
        if (!last) out.push(delimiter);
      });
    }
    out.push('}');
  }

  #list(list: readonly unknown[], out: Output, indent: number, allowance: number, level: number): void {
    out.push('[');
    const inner = indent + 1;
    const delimiter = ',\n' + ' '.repeat(inner);
    list.forEach((item, i) => {
      const last = i === list.length - 1;
      if (i > 0) out.push(delimiter);
      this.format(item, out, inner, last ? allowance + 1 : 1, level);
    });
    out.push(']');
  }

  #str(text: string, out: Output, indent: number, allowance: number, level: number): void {
    if (text.length === 0) {
      out.push(pythonRepr(text));
      return;
    }
    const chunks: string[] = [];
    const lines = splitLines(text);
    if (level === 1) {
      indent += 1;
      allowance += 1;
    }
    const maxWidth = this.width - indent;
    let maxWidth1 = maxWidth;
    lines.forEach((line, i) => {
      const lastLine = i === lines.length - 1;
      const rep = pythonRepr(line);
      if (lastLine) maxWidth1 -= allowance;
      if (pythonLength(rep) <= maxWidth1) {
        chunks.push(rep);
        return;
      }
      // Alternating runs of non-space then space, as re.findall(r'\S*\s*') gives them.
      const parts = line.match(/\S*\s*/gu) ?? [];
      parts.pop();
      let maxWidth2 = maxWidth;
      let current = '';
      parts.forEach((part, j) => {
        const candidate = current + part;
        if (j === parts.length - 1 && lastLine) maxWidth2 -= allowance;
        if (pythonLength(pythonRepr(candidate)) > maxWidth2) {
          if (current !== '') chunks.push(pythonRepr(current));
          current = part;
        } else {
          current = candidate;
        }
      });
      if (current !== '') chunks.push(pythonRepr(current));
    });
    if (chunks.length === 1) {
      out.push(pythonRepr(text));
      return;
    }
    if (level === 1) out.push('(');
    chunks.forEach((chunk, i) => {
      if (i > 0) out.push('\n' + ' '.repeat(indent));
      out.push(chunk);
    });
    if (level === 1) out.push(')');
  }
}

/** `pprint.pformat(value)` as Python 3.11 prints it. */
export function pformat(value: unknown, options: PformatOptions = {}): string {
  const out: Output = [];
  new PrettyPrinter(options.width ?? 80, new Set(options.floatKeys ?? [])).format(value, out, 0, 0, 0);
  return out.join('');
}
