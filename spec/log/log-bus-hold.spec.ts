import { describe, expect, it } from '@jest/globals';
import { LogBus } from '../../src/log/index.js';

describe('LogBus.hold (the log of a crawl while inspectResponse is open)', () => {
  it('holds events until released, then emits them in order', () => {
    const bus = new LogBus();
    const seen: string[] = [];
    bus.events$.subscribe((event) => seen.push(event.message));
    bus.getLogger('x').info('before');
    const release = bus.hold();
    bus.getLogger('x').info('during 1');
    bus.getLogger('x').info('during 2');
    expect(seen).toEqual(['before']);
    release();
    bus.getLogger('x').info('after');
    expect(seen).toEqual(['before', 'during 1', 'during 2', 'after']);
  });

  it('nests: events flow again only when the last hold is released; releasing twice counts once', () => {
    const bus = new LogBus();
    const seen: string[] = [];
    bus.events$.subscribe((event) => seen.push(event.message));
    const outer = bus.hold();
    const inner = bus.hold();
    bus.getLogger('x').info('held');
    inner();
    inner();
    expect(seen).toEqual([]);
    outer();
    expect(seen).toEqual(['held']);
  });
});
