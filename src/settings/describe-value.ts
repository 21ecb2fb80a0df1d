/**
 * How a value is quoted in error messages: strings in single quotes like
 * Scrapy's Python reprs (`got 'abc'`), other values as JSON, shortened so a
 * huge dict does not flood the terminal.
 */
const MAX_LENGTH = 80;

export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  else if (value === undefined) text = 'undefined';
  else if (typeof value === 'function') text = `[function ${value.name || 'anonymous'}]`;
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'number' || typeof value === 'boolean' || value === null) text = String(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 3)}...` : text;
}
