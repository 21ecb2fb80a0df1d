/**
 * JSON text as Python's `json.dumps(value, sort_keys=True)` writes it, which
 * is what Scrapy's JsonRequest sends: `", "` and `": "` between items, keys
 * sorted, every non-ASCII character escaped (`\u00e9`, surrogate pairs above
 * U+FFFF). Servers that sign or compare request bodies see the same bytes as
 * from the Scrapy spider being ported. Values follow JSON.stringify's rules
 * (toJSON, undefined members left out, a non-finite number is null).
 */

function quote(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const char = text[i]!;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\b') out += '\\b';
    else if (char === '\f') out += '\\f';
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * A number as JavaScript writes it, with Python's two-digit exponent (1e-07).
 * JavaScript has one number type: a whole number is written as an integer
 * (as Python writes an int), so 1e16 is 10000000000000000, not 1e+16.
 */
function number(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  const text = String(value);
  const exponent = /^(-?[\d.]+)e([+-])(\d+)$/.exec(text);
  if (exponent === null) return text;
  return `${exponent[1]}e${exponent[2]}${exponent[3]!.padStart(2, '0')}`;
}

function write(value: unknown, sortKeys: boolean, key: string): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return number(value);
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
  if (Array.isArray(value)) return `[${value.map((item, index) => write(item, sortKeys, String(index)) ?? 'null').join(', ')}]`;
  const keys = Object.keys(value as object);
  if (sortKeys) keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const members: string[] = [];
  for (const name of keys) {
    const text = write((value as Record<string, unknown>)[name], sortKeys, name);
    if (text !== undefined) members.push(`${quote(name)}: ${text}`);
  }
  return `{${members.join(', ')}}`;
}

export function pythonJsonDumps(value: unknown, options: { sortKeys?: boolean } = {}): string {
  return write(value, options.sortKeys ?? true, '') ?? 'null';
}
