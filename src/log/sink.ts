/**
 * The log sink: subscribes to a bus's events and writes the lines that pass
 * LOG_LEVEL to stderr, or to LOG_FILE. Scrapy's `_get_handler` in
 * utils/log.py is the model, with one difference: LOG_ENABLED=false (what
 * `--nolog` sets) silences LOG_FILE too, where Scrapy would still write it.
 *
 * Writes are synchronous, like Python's handlers: lines keep their order
 * with other output and none is lost when the process exits right after.
 *
 * A LOG_FILE that stops taking lines (a full disk) is said once on the
 * stream (stderr), and the crawl goes on: its data is in the feeds, and a
 * log is not worth losing them for. From then on the ERROR and CRITICAL
 * lines go to the stream, so a failure later in the crawl is still seen.
 * (Before, the write threw inside the subscriber: the log stopped, silently.)
 */
import { closeSync, writeSync } from 'node:fs';
import { openPrivateFileSync } from '../private-files.js';
import { Subscription, filter, type Observable } from 'rxjs';
import { describeValue } from '../settings/describe-value.js';
import type { Settings } from '../settings/settings.js';
import { SettingsError } from '../settings/settings-error.js';
import { compileLogFormat, formatLogLine } from './format.js';
import { LOG_LEVELS, type LogLevel } from '../settings/log-levels.js';
import type { LogEvent } from './log-event.js';
import { LogFileError } from './log-file-error.js';

/** Where text goes: `process.stdout`, `process.stderr`, or a test's collector. */
export interface TextWriter {
  write(text: string): unknown;
}

export interface LogSinkOptions {
  readonly enabled: boolean;
  readonly level: LogLevel;
  /** Write here instead of the stream; null for the stream. */
  readonly file: string | null;
  /** Append to `file` (LOG_FILE_APPEND), or truncate it when the sink starts. */
  readonly append: boolean;
  readonly encoding: BufferEncoding;
  readonly format: string;
  readonly dateFormat: string;
  readonly shortNames: boolean;
}

// Python codec names people put in LOG_ENCODING → the encodings Node can write.
const ENCODINGS: Readonly<Record<string, BufferEncoding>> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'latin-1': 'latin1',
  latin1: 'latin1',
  'iso-8859-1': 'latin1',
  'iso8859-1': 'latin1',
  ascii: 'ascii',
  'us-ascii': 'ascii',
  'utf-16le': 'utf16le',
  'utf-16-le': 'utf16le',
};

function nodeEncoding(settings: Settings): BufferEncoding {
  const name = settings.get('LOG_ENCODING');
  const encoding = ENCODINGS[name.trim().toLowerCase().replace(/_/g, '-')];
  if (encoding === undefined) {
    throw new SettingsError(
      `Setting LOG_ENCODING expects utf-8, latin-1, ascii or utf-16le, got ${describeValue(name)} ` +
        `(from ${settings.getSource('LOG_ENCODING') ?? "seine's defaults"})`,
    );
  }
  return encoding;
}

/** Reads the LOG_* settings; a `SettingsError` for any value that cannot be used. */
export function logSinkOptions(settings: Settings): LogSinkOptions {
  const options: LogSinkOptions = {
    enabled: settings.get('LOG_ENABLED'),
    level: settings.get('LOG_LEVEL'),
    file: settings.get('LOG_FILE'),
    append: settings.get('LOG_FILE_APPEND'),
    encoding: nodeEncoding(settings),
    format: settings.get('LOG_FORMAT'),
    dateFormat: settings.get('LOG_DATEFORMAT'),
    shortNames: settings.get('LOG_SHORT_NAMES'),
  };
  compileLogFormat(options.format);
  return options;
}

function openLogFile(file: string, append: boolean): number {
  try {
    // A file it creates is 0600: the log can hold secrets (the generated telnet password).
    return openPrivateFileSync(file, append ? 'a' : 'w');
  } catch (error) {
    // Not `instanceof Error`: errors from Node's fs may come from another realm (e.g. under jest's vm).
    const message = (error as { message?: unknown } | null)?.message;
    const reason = typeof message === 'string' ? message : String(error);
    throw new LogFileError(
      `Cannot open log file '${file}' (${reason}): check that its folder exists and is writable, ` +
        'or choose another path with --logfile or LOG_FILE',
      { cause: error },
    );
  }
}

/** writeSync may take part of a buffer (a disk filling up): the rest follows, or the error says why not. */
function writeWhole(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

/** `ENOSPC: no space left on device`, without Node's `, write`. */
function systemMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return (typeof message === 'string' ? message : String(error)).replace(/, write$/, '');
}

/**
 * Writes `events$` per `options` until the returned subscription is
 * unsubscribed (which also closes LOG_FILE). A LOG_FILE that cannot be opened
 * throws a `LogFileError` here, before any event is taken.
 */
export function attachLogSink(
  events$: Observable<LogEvent>,
  options: LogSinkOptions,
  stream: TextWriter = process.stderr,
): Subscription {
  if (!options.enabled) return new Subscription();
  const threshold = LOG_LEVELS[options.level];
  const lineOptions = { format: options.format, dateFormat: options.dateFormat, shortNames: options.shortNames };
  let write: (line: string, event: LogEvent) => void;
  let close = (): void => {};
  if (options.file !== null) {
    const file = options.file;
    const fd = openLogFile(file, options.append);
    let broken = false;
    write = (line, event) => {
      if (!broken) {
        try {
          writeWhole(fd, Buffer.from(`${line}\n`, options.encoding));
          return;
        } catch (error) {
          broken = true;
          stream.write(`seine: Cannot write the log file '${file}' (${systemMessage(error)}): the crawl goes on without its log; its ERROR and CRITICAL lines follow here\n`);
        }
      }
      if (LOG_LEVELS[event.level] >= LOG_LEVELS.ERROR) stream.write(`${line}\n`);
    };
    close = () => closeSync(fd);
  } else {
    write = (line) => {
      stream.write(`${line}\n`);
    };
  }
  const subscription = events$
    .pipe(filter((event) => LOG_LEVELS[event.level] >= threshold))
    .subscribe((event) => write(formatLogLine(event, lineOptions), event));
  subscription.add(close);
  return subscription;
}
