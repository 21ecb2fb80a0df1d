import { describe, expect, it } from '@jest/globals';
import { toArray } from 'rxjs';
import { LogBus, defaultLogBus, getLogger } from '../../src/log/log-bus.js';
import type { LogEvent } from '../../src/log/log-event.js';

const TIME = new Date(2024, 0, 2, 3, 4, 5);

describe('LogBus', () => {
  it('emits one event per logger call, stamped by its clock', () => {
    const bus = new LogBus({ now: () => TIME });
    const events: LogEvent[] = [];
    bus.events$.subscribe((event) => events.push(event));
    const logger = bus.getLogger('seine.core.engine');
    logger.debug('d');
    logger.info('i');
    logger.warning('w');
    logger.error('e', { url: 'http://x/' });
    logger.critical('c');
    logger.log('INFO', 'l');
    expect(events).toEqual([
      { time: TIME, logger: 'seine.core.engine', level: 'DEBUG', message: 'd' },
      { time: TIME, logger: 'seine.core.engine', level: 'INFO', message: 'i' },
      { time: TIME, logger: 'seine.core.engine', level: 'WARNING', message: 'w' },
      { time: TIME, logger: 'seine.core.engine', level: 'ERROR', message: 'e', extra: { url: 'http://x/' } },
      { time: TIME, logger: 'seine.core.engine', level: 'CRITICAL', message: 'c' },
      { time: TIME, logger: 'seine.core.engine', level: 'INFO', message: 'l' },
    ]);
  });

  it('returns the same logger for the same name', () => {
    const bus = new LogBus();
    expect(bus.getLogger('a')).toBe(bus.getLogger('a'));
    expect(bus.getLogger('a')).not.toBe(bus.getLogger('b'));
    expect(bus.getLogger('a').name).toBe('a');
  });

  it('keeps the events of two buses apart', () => {
    const first = new LogBus();
    const second = new LogBus();
    const seen: string[] = [];
    first.events$.subscribe((event) => seen.push(`first:${event.message}`));
    second.events$.subscribe((event) => seen.push(`second:${event.message}`));
    first.getLogger('x').info('one');
    second.getLogger('x').info('two');
    expect(seen).toEqual(['first:one', 'second:two']);
  });

  it('drops events emitted before anyone subscribes', () => {
    const bus = new LogBus();
    bus.getLogger('x').info('lost');
    const seen: string[] = [];
    bus.events$.subscribe((event) => seen.push(event.message));
    bus.getLogger('x').info('kept');
    expect(seen).toEqual(['kept']);
  });

  it('completes events$ on complete()', async () => {
    const bus = new LogBus();
    const all = new Promise<LogEvent[]>((resolve) => bus.events$.pipe(toArray()).subscribe(resolve));
    bus.getLogger('x').info('only');
    bus.complete();
    expect((await all).map((event) => event.message)).toEqual(['only']);
  });

  it('logs to the default bus through getLogger(name)', () => {
    const seen: string[] = [];
    const subscription = defaultLogBus.events$.subscribe((event) => seen.push(`${event.logger}:${event.message}`));
    getLogger('seine.test').info('hello');
    subscription.unsubscribe();
    expect(seen).toEqual(['seine.test:hello']);
    expect(getLogger('seine.test')).toBe(defaultLogBus.getLogger('seine.test'));
  });
});

describe('LogBus levels', () => {
  it('skips events below every leveled subscriber, and builds them again once someone takes every level', () => {
    const bus = new LogBus({ now: () => TIME });
    const atInfo: string[] = [];
    const sink = bus.eventsAt('INFO').subscribe((event) => atInfo.push(`${event.level} ${event.message}`));
    expect(bus.wants('DEBUG')).toBe(false);
    expect(bus.wants('INFO')).toBe(true);
    const logger = bus.getLogger('x');
    logger.debug('hidden');
    logger.info('shown');
    const all: string[] = [];
    const watcher = bus.events$.subscribe((event) => all.push(`${event.level} ${event.message}`));
    expect(bus.wants('DEBUG')).toBe(true);
    logger.debug('for the watcher');
    watcher.unsubscribe();
    expect(bus.wants('DEBUG')).toBe(false);
    logger.debug('hidden again');
    expect(atInfo).toEqual(['INFO shown']);
    expect(all).toEqual(['DEBUG for the watcher']);
    sink.unsubscribe();
    expect(bus.wants('CRITICAL')).toBe(false);
  });

  it('completes leveled subscribers with the bus', () => {
    const bus = new LogBus();
    let completed = false;
    bus.eventsAt('WARNING').subscribe({ complete: () => (completed = true) });
    bus.complete();
    expect(completed).toBe(true);
  });
});
