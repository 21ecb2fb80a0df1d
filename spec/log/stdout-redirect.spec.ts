import { describe, expect, it } from '@jest/globals';
import { LogBus } from '../../src/log/log-bus.js';
import type { LogEvent } from '../../src/log/log-event.js';
import { STARTUP_LOGGER, logStartupInfo } from '../../src/log/startup-info.js';
import { loggingWriter, redirectProcessStdout } from '../../src/log/stdout-redirect.js';
import { Settings } from '../../src/settings/settings.js';
import { SEINE_VERSION, componentVersions } from '../../src/version.js';

function capture(bus: LogBus): LogEvent[] {
  const events: LogEvent[] = [];
  bus.events$.subscribe((event) => events.push(event));
  return events;
}

describe('loggingWriter', () => {
  it('logs each line of the text at INFO, dropping trailing whitespace and the final newline', () => {
    const bus = new LogBus();
    const events = capture(bus);
    loggingWriter(bus.getLogger('stdout')).write('first  \nsecond\n\n');
    expect(events.map((event) => `${event.logger} ${event.level} ${JSON.stringify(event.message)}`)).toEqual([
      'stdout INFO "first"',
      'stdout INFO "second"',
    ]);
  });
});

describe('redirectProcessStdout', () => {
  it('logs what is written to process.stdout until restored', () => {
    const bus = new LogBus();
    const events = capture(bus);
    const original = process.stdout.write;
    const restore = redirectProcessStdout(bus.getLogger('stdout'));
    let called = false;
    process.stdout.write('captured\n', () => {
      called = true;
    });
    process.stdout.write(Buffer.from('bytes\n'));
    restore();
    expect(process.stdout.write).toBe(original);
    expect(called).toBe(true);
    expect(events.map((event) => event.message)).toEqual(['captured', 'bytes']);
  });
});

describe('logStartupInfo', () => {
  it("logs Scrapy's two first lines under seine.utils.log", () => {
    const bus = new LogBus();
    const events = capture(bus);
    logStartupInfo(bus.getLogger(STARTUP_LOGGER), new Settings({ BOT_NAME: 'tutorial' }));
    const versions = componentVersions()
      .slice(1)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ');
    expect(events.map((event) => [event.logger, event.level, event.message])).toEqual([
      ['seine.utils.log', 'INFO', `seine ${SEINE_VERSION} started (bot: tutorial)`],
      ['seine.utils.log', 'INFO', `Versions: ${versions}`],
    ]);
    expect(versions).toMatch(/^Node\.js \d+\.\d+\.\d+, rxjs \S+, got \S+, htmlparser2 \S+, yargs \S+, Platform \S+$/);
  });
});
