/**
 * Log lines as a pure function of log events. LOG_FORMAT uses Python's
 * `%(attribute)s` placeholders (with `%(levelname)-8s`-style width, flags and
 * precision) and LOG_DATEFORMAT `strftime` directives, so a Scrapy user's
 * settings carry over unchanged. Times are local, as in Scrapy.
 */
import { SettingsError } from '../settings/settings-error.js';
import { LOG_LEVELS } from '../settings/log-levels.js';
import type { LogEvent } from './log-event.js';
import { formatDate } from './strftime.js';
import { isError } from '../value-kinds.js';
import { maskUrlCredentials } from '../url-credentials.js';

export const DEFAULT_LOG_FORMAT = '%(asctime)s [%(name)s] %(levelname)s: %(message)s';
export const DEFAULT_LOG_DATEFORMAT = '%Y-%m-%d %H:%M:%S';

export interface LogFormatOptions {
  /** LOG_FORMAT; default `%(asctime)s [%(name)s] %(levelname)s: %(message)s`. */
  readonly format?: string;
  /** LOG_DATEFORMAT; default `%Y-%m-%d %H:%M:%S`. Empty or null: Python's `2024-01-02 03:04:05,678`. */
  readonly dateFormat?: string | null;
  /** LOG_SHORT_NAMES: print `seine` instead of `seine.core.engine`. */
  readonly shortNames?: boolean;
}

// The LogRecord attributes a format may use; the others (lineno, funcName, …)
// have no meaning for a stream of events.
const ATTRIBUTES = {
  asctime: 'string',
  name: 'string',
  levelname: 'string',
  levelno: 'number',
  message: 'string',
  created: 'number',
  msecs: 'number',
  process: 'number',
} as const;

type Attribute = keyof typeof ATTRIBUTES;
type LogRecord = { readonly [A in Attribute]: () => string | number };

interface Placeholder {
  readonly attribute: Attribute;
  readonly flags: string;
  readonly width: number | undefined;
  readonly precision: number | undefined;
  readonly conversion: string;
}

type Part = string | Placeholder;

const PLACEHOLDER = /%(?:\((\w*)\)([-0 +#]*)(\d+)?(?:\.(\d+))?([sradifF])|%)/y;

function attributeList(): string {
  const conversion = (name: string, type: string): string => (type === 'string' ? 's' : name === 'created' ? 'f' : 'd');
  return Object.entries(ATTRIBUTES).map(([name, type]) => `%(${name})${conversion(name, type)}`).join(', ');
}

/** Parses a LOG_FORMAT once; a `SettingsError` explains a placeholder Python would reject. */
export function compileLogFormat(format: string): readonly Part[] {
  const parts: Part[] = [];
  let literal = '';
  let i = 0;
  while (i < format.length) {
    const percent = format.indexOf('%', i);
    if (percent === -1) {
      literal += format.slice(i);
      break;
    }
    literal += format.slice(i, percent);
    PLACEHOLDER.lastIndex = percent;
    const match = PLACEHOLDER.exec(format);
    if (match === null) {
      throw new SettingsError(
        `Setting LOG_FORMAT has an invalid placeholder at ${JSON.stringify(format.slice(percent, percent + 12))}: ` +
          `use %(attribute)s placeholders (${attributeList()}) and write a literal % as %%`,
      );
    }
    i = PLACEHOLDER.lastIndex;
    if (match[0] === '%%') {
      literal += '%';
      continue;
    }
    const [, attribute = '', flags = '', width, precision, conversion = 's'] = match;
    if (!Object.hasOwn(ATTRIBUTES, attribute)) {
      throw new SettingsError(
        `Setting LOG_FORMAT uses the unknown attribute ${JSON.stringify(match[0])}: the known ones are ${attributeList()}`,
      );
    }
    const known = attribute as Attribute;
    if (ATTRIBUTES[known] === 'string' && 'difF'.includes(conversion)) {
      throw new SettingsError(
        `Setting LOG_FORMAT formats the text attribute ${known} as a number in ${JSON.stringify(match[0])}: use %(${known})s`,
      );
    }
    if (literal !== '') parts.push(literal);
    literal = '';
    parts.push({
      attribute: known,
      flags,
      width: width === undefined ? undefined : Number(width),
      precision: precision === undefined ? undefined : Number(precision),
      conversion,
    });
  }
  if (literal !== '') parts.push(literal);
  return parts;
}

function render(value: string | number, spec: Placeholder): string {
  let body: string;
  let sign = '';
  const numeric = 'difF'.includes(spec.conversion);
  if (numeric) {
    const number = Number(value);
    const magnitude = Math.abs(number);
    body = spec.conversion === 'f' || spec.conversion === 'F'
      ? magnitude.toFixed(spec.precision ?? 6)
      : String(Math.trunc(magnitude));
    if (number < 0) sign = '-';
    else if (spec.flags.includes('+')) sign = '+';
    else if (spec.flags.includes(' ')) sign = ' ';
  } else {
    // %r / %a: Python's repr, which quotes text in single quotes.
    body =
      spec.conversion === 's' || typeof value === 'number'
        ? String(value)
        : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    if (spec.precision !== undefined) body = body.slice(0, spec.precision);
  }
  const width = spec.width ?? 0;
  const length = sign.length + body.length;
  if (length >= width) return sign + body;
  if (spec.flags.includes('-')) return (sign + body).padEnd(width);
  if (numeric && spec.flags.includes('0')) return sign + body.padStart(width - sign.length, '0');
  return (sign + body).padStart(width);
}

const compiled = new Map<string, readonly Part[]>();

function partsFor(format: string): readonly Part[] {
  let parts = compiled.get(format);
  if (parts === undefined) {
    parts = compileLogFormat(format);
    // Formats come from settings: a handful per process, so an unbounded cache is fine.
    compiled.set(format, parts);
  }
  return parts;
}

function asctime(time: Date, dateFormat: string | null | undefined): string {
  if (dateFormat === null || dateFormat === '') {
    return `${formatDate(time, DEFAULT_LOG_DATEFORMAT)},${String(time.getMilliseconds()).padStart(3, '0')}`;
  }
  return formatDate(time, dateFormat ?? DEFAULT_LOG_DATEFORMAT);
}

/** Like Python logging, an error in `extra.error` is printed after the line, stack included. */
function errorText(event: LogEvent): string | undefined {
  if (event.extra === undefined || !('error' in event.extra)) return undefined;
  const error = event.extra['error'];
  if (isError(error)) return error.stack ?? `${error.name}: ${error.message}`;
  return error === undefined ? undefined : String(error);
}

/**
 * `2024-01-02 03:04:05 [seine.core.engine] INFO: Spider opened` with the
 * default options. Multi-line messages stay multi-line, as in Scrapy.
 */
export function formatLogLine(event: LogEvent, options: LogFormatOptions = {}): string {
  const record: LogRecord = {
    asctime: () => asctime(event.time, options.dateFormat),
    name: () => (options.shortNames === true && event.logger.startsWith('seine.') ? 'seine' : event.logger),
    levelname: () => event.level,
    levelno: () => LOG_LEVELS[event.level],
    message: () => event.message,
    created: () => event.time.getTime() / 1000,
    msecs: () => event.time.getMilliseconds(),
    process: () => process.pid,
  };
  let line = '';
  for (const part of partsFor(options.format ?? DEFAULT_LOG_FORMAT)) {
    line += typeof part === 'string' ? part : render(record[part.attribute](), part);
  }
  const error = errorText(event);
  // The one place every written log line passes: a URL's password never reaches a log file (docs/security.md).
  return maskUrlCredentials(error === undefined ? line : `${line}\n${error}`);
}
