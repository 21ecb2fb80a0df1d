import { describe, expect, it } from '@jest/globals';
import { compileLogFormat, formatLogLine } from '../../src/log/format.js';
import type { LogEvent } from '../../src/log/log-event.js';
import { formatDate } from '../../src/log/strftime.js';
import { SettingsError } from '../../src/settings/settings-error.js';

// Local time, as log lines are: the expected text does not depend on the machine's time zone.
const TIME = new Date(2024, 0, 2, 3, 4, 5, 78);

function event(overrides: Partial<LogEvent> = {}): LogEvent {
  return { time: TIME, logger: 'seine.core.engine', level: 'INFO', message: 'Spider opened', ...overrides };
}

describe('formatLogLine', () => {
  it("prints Scrapy's default line: date, logger, level, message", () => {
    expect(formatLogLine(event())).toBe('2024-01-02 03:04:05 [seine.core.engine] INFO: Spider opened');
  });

  it('prints every level name', () => {
    const levels = ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
    expect(levels.map((level) => formatLogLine(event({ level, message: 'm' })))).toEqual([
      '2024-01-02 03:04:05 [seine.core.engine] DEBUG: m',
      '2024-01-02 03:04:05 [seine.core.engine] INFO: m',
      '2024-01-02 03:04:05 [seine.core.engine] WARNING: m',
      '2024-01-02 03:04:05 [seine.core.engine] ERROR: m',
      '2024-01-02 03:04:05 [seine.core.engine] CRITICAL: m',
    ]);
  });

  it('shortens seine.* logger names to seine with shortNames, and leaves others alone', () => {
    expect(formatLogLine(event(), { shortNames: true })).toBe('2024-01-02 03:04:05 [seine] INFO: Spider opened');
    expect(formatLogLine(event({ logger: 'quotes' }), { shortNames: true })).toBe(
      '2024-01-02 03:04:05 [quotes] INFO: Spider opened',
    );
    expect(formatLogLine(event({ logger: 'seinefan' }), { shortNames: true })).toBe(
      '2024-01-02 03:04:05 [seinefan] INFO: Spider opened',
    );
  });

  it('uses a custom date format', () => {
    expect(formatLogLine(event(), { dateFormat: '%d/%m/%y %I:%M %p' })).toBe(
      '02/01/24 03:04 AM [seine.core.engine] INFO: Spider opened',
    );
  });

  it("uses Python's default asctime with milliseconds when the date format is empty", () => {
    expect(formatLogLine(event(), { dateFormat: '' })).toBe(
      '2024-01-02 03:04:05,078 [seine.core.engine] INFO: Spider opened',
    );
  });

  it('supports Python widths, flags and the numeric attributes', () => {
    const format = '%(levelname)-8s|%(levelno)3d|%(msecs)03d|%(name).5s|%(levelname)8s|%(levelno)+d|%%';
    expect(formatLogLine(event(), { format })).toBe('INFO    | 20|078|seine|    INFO|+20|%');
  });

  it('prints created as seconds with six decimals and %r as a quoted repr', () => {
    expect(formatLogLine(event(), { format: '%(created)f %(message)r' })).toBe(
      `${(TIME.getTime() / 1000).toFixed(6)} 'Spider opened'`,
    );
  });

  it('keeps multi-line messages and appends the stack of extra.error after the line', () => {
    const error = new Error('boom');
    error.stack = 'Error: boom\n    at test';
    expect(formatLogLine(event({ message: 'a\nb', level: 'ERROR', extra: { error } }))).toBe(
      '2024-01-02 03:04:05 [seine.core.engine] ERROR: a\nb\nError: boom\n    at test',
    );
  });

  it('ignores extra data other than error', () => {
    expect(formatLogLine(event({ extra: { url: 'http://x/' } }))).toBe(
      '2024-01-02 03:04:05 [seine.core.engine] INFO: Spider opened',
    );
  });
});

describe('compileLogFormat', () => {
  it('rejects an unknown attribute with the list of known ones', () => {
    expect(() => compileLogFormat('%(lineno)d %(message)s')).toThrow(
      new SettingsError(
        'Setting LOG_FORMAT uses the unknown attribute "%(lineno)d": the known ones are ' +
          '%(asctime)s, %(name)s, %(levelname)s, %(levelno)d, %(message)s, %(created)f, %(msecs)d, %(process)d',
      ),
    );
  });

  it('rejects a stray percent sign', () => {
    expect(() => compileLogFormat('100% done %(message)s')).toThrow(
      'Setting LOG_FORMAT has an invalid placeholder at "% done %(mes": use %(attribute)s placeholders',
    );
  });

  it('rejects formatting a text attribute as a number', () => {
    expect(() => compileLogFormat('%(name)d')).toThrow(
      'Setting LOG_FORMAT formats the text attribute name as a number in "%(name)d": use %(name)s',
    );
  });
});

describe('formatDate', () => {
  it('formats the strftime directives in the C locale', () => {
    const date = new Date(2024, 1, 29, 15, 7, 9);
    expect(formatDate(date, '%a %A %b %B %d %e %H %I %j %m %M %p %S %u %w %y %Y %%')).toBe(
      'Thu Thursday Feb February 29 29 15 03 060 02 07 PM 09 4 4 24 2024 %',
    );
    expect(formatDate(date, '%c|%x|%X|%D|%F|%T')).toBe(
      'Thu Feb 29 15:07:09 2024|02/29/24|15:07:09|02/29/24|2024-02-29|15:07:09',
    );
  });

  it('copies unknown directives unchanged', () => {
    expect(formatDate(TIME, '%Q %Y')).toBe('%Q 2024');
  });

  it('prints the UTC offset as +HHMM', () => {
    expect(formatDate(TIME, '%z')).toMatch(/^[+-]\d{4}$/);
  });
});
