import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogBus } from '../../src/log/log-bus.js';
import { LogFileError } from '../../src/log/log-file-error.js';
import { attachLogSink, logSinkOptions, type LogSinkOptions } from '../../src/log/sink.js';
import { Settings } from '../../src/settings/settings.js';
import { SettingsError } from '../../src/settings/settings-error.js';

const TIME = new Date(2024, 0, 2, 3, 4, 5);

function collector(): { write(text: string): void; text: string } {
  return {
    text: '',
    write(text: string) {
      this.text += text;
    },
  };
}

function options(overrides: Partial<LogSinkOptions> = {}): LogSinkOptions {
  return { ...logSinkOptions(new Settings()), ...overrides };
}

function logEveryLevel(bus: LogBus): void {
  const logger = bus.getLogger('seine.test');
  logger.debug('d');
  logger.info('i');
  logger.warning('w');
  logger.error('e');
  logger.critical('c');
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seine-sink-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('attachLogSink', () => {
  it('writes every event at the default level DEBUG to the stream', () => {
    const bus = new LogBus({ now: () => TIME });
    const out = collector();
    const sink = attachLogSink(bus.events$, options(), out);
    logEveryLevel(bus);
    sink.unsubscribe();
    expect(out.text).toBe(
      [
        '2024-01-02 03:04:05 [seine.test] DEBUG: d',
        '2024-01-02 03:04:05 [seine.test] INFO: i',
        '2024-01-02 03:04:05 [seine.test] WARNING: w',
        '2024-01-02 03:04:05 [seine.test] ERROR: e',
        '2024-01-02 03:04:05 [seine.test] CRITICAL: c',
        '',
      ].join('\n'),
    );
  });

  it('drops events below LOG_LEVEL', () => {
    const bus = new LogBus({ now: () => TIME });
    const out = collector();
    attachLogSink(bus.events$, options({ level: 'WARNING' }), out);
    logEveryLevel(bus);
    expect(out.text).toBe(
      '2024-01-02 03:04:05 [seine.test] WARNING: w\n' +
        '2024-01-02 03:04:05 [seine.test] ERROR: e\n' +
        '2024-01-02 03:04:05 [seine.test] CRITICAL: c\n',
    );
  });

  it('writes nothing when logging is disabled', () => {
    const bus = new LogBus();
    const out = collector();
    attachLogSink(bus.events$, options({ enabled: false }), out);
    logEveryLevel(bus);
    expect(out.text).toBe('');
  });

  it('stops writing once unsubscribed', () => {
    const bus = new LogBus({ now: () => TIME });
    const out = collector();
    const sink = attachLogSink(bus.events$, options(), out);
    bus.getLogger('x').info('before');
    sink.unsubscribe();
    bus.getLogger('x').info('after');
    expect(out.text).toBe('2024-01-02 03:04:05 [x] INFO: before\n');
  });

  it('honours LOG_SHORT_NAMES and LOG_FORMAT', () => {
    const bus = new LogBus({ now: () => TIME });
    const out = collector();
    attachLogSink(bus.events$, options({ shortNames: true, format: '%(name)s %(levelname)s %(message)s' }), out);
    bus.getLogger('seine.core.engine').info('Spider opened');
    expect(out.text).toBe('seine INFO Spider opened\n');
  });
});

describe('attachLogSink with LOG_FILE', () => {
  it('appends to an existing file when LOG_FILE_APPEND is true, and writes nothing to the stream', () => {
    const file = join(dir, 'crawl.log');
    writeFileSync(file, 'old line\n');
    const bus = new LogBus({ now: () => TIME });
    const out = collector();
    const sink = attachLogSink(bus.events$, options({ file, append: true, level: 'INFO' }), out);
    logEveryLevel(bus);
    sink.unsubscribe();
    expect(out.text).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(
      'old line\n' +
        '2024-01-02 03:04:05 [seine.test] INFO: i\n' +
        '2024-01-02 03:04:05 [seine.test] WARNING: w\n' +
        '2024-01-02 03:04:05 [seine.test] ERROR: e\n' +
        '2024-01-02 03:04:05 [seine.test] CRITICAL: c\n',
    );
  });

  it('truncates the file when LOG_FILE_APPEND is false', () => {
    const file = join(dir, 'crawl.log');
    writeFileSync(file, 'old line\n');
    const bus = new LogBus({ now: () => TIME });
    const sink = attachLogSink(bus.events$, options({ file, append: false }), collector());
    bus.getLogger('x').info('new');
    sink.unsubscribe();
    expect(readFileSync(file, 'utf8')).toBe('2024-01-02 03:04:05 [x] INFO: new\n');
  });

  it('writes the file in LOG_ENCODING', () => {
    const file = join(dir, 'latin.log');
    const settings = new Settings({ LOG_FILE: file, LOG_ENCODING: 'latin-1', LOG_FORMAT: '%(message)s' });
    const bus = new LogBus();
    const sink = attachLogSink(bus.events$, logSinkOptions(settings), collector());
    bus.getLogger('x').info('café');
    sink.unsubscribe();
    expect([...readFileSync(file)]).toEqual([0x63, 0x61, 0x66, 0xe9, 0x0a]);
  });

  it('does not create LOG_FILE when logging is disabled', () => {
    const file = join(dir, 'never.log');
    attachLogSink(new LogBus().events$, options({ file, enabled: false }), collector());
    expect(() => readFileSync(file)).toThrow('ENOENT');
  });

  it('throws a LogFileError naming the file when it cannot be opened', () => {
    const file = join(dir, 'missing', 'crawl.log');
    let thrown: unknown;
    try {
      attachLogSink(new LogBus().events$, options({ file }), collector());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LogFileError);
    expect((thrown as LogFileError).code).toBe('SEINE_LOG_FILE');
    expect((thrown as LogFileError).message).toBe(
      `Cannot open log file '${file}' (ENOENT: no such file or directory, open '${file}'): ` +
        'check that its folder exists and is writable, or choose another path with --logfile or LOG_FILE',
    );
  });
});

describe('logSinkOptions', () => {
  it('reads the LOG_* settings', () => {
    const settings = new Settings({ LOG_LEVEL: 'warning', LOG_FILE: 'x.log', LOG_FILE_APPEND: 'false', LOG_SHORT_NAMES: '1' });
    expect(logSinkOptions(settings)).toEqual({
      enabled: true,
      level: 'WARNING',
      file: 'x.log',
      append: false,
      encoding: 'utf8',
      format: '%(asctime)s [%(name)s] %(levelname)s: %(message)s',
      dateFormat: '%Y-%m-%d %H:%M:%S',
      shortNames: true,
    });
  });

  it('is disabled by --nolog (LOG_ENABLED=false at cmdline) even when a project enables logging', () => {
    const settings = new Settings({ LOG_ENABLED: true });
    settings.set('LOG_ENABLED', false, 'cmdline', '--nolog');
    expect(logSinkOptions(settings).enabled).toBe(false);
  });

  it('rejects an encoding Node.js cannot write, naming its source', () => {
    const settings = new Settings();
    settings.set('LOG_ENCODING', 'cp1252', 'cmdline', '-s LOG_ENCODING=cp1252');
    expect(() => logSinkOptions(settings)).toThrow(
      new SettingsError(
        "Setting LOG_ENCODING expects utf-8, latin-1, ascii or utf-16le, got 'cp1252' (from -s LOG_ENCODING=cp1252)",
      ),
    );
  });

  it('rejects a bad LOG_FORMAT before any event is written', () => {
    expect(() => logSinkOptions(new Settings({ LOG_FORMAT: '%(funcName)s' }))).toThrow(
      'Setting LOG_FORMAT uses the unknown attribute "%(funcName)s"',
    );
  });
});
