/**
 * The `-o -` storage on its own: backpressure reported once per full
 * buffer, a late failure reported once (and every later write throwing
 * it), a crawl paused for 'drain' released when the stream fails, and the
 * 'error' listener dropped once the feed is closed and flushed.
 * (spec/feeds/feed-write-failures.spec.ts runs the same through the binary.)
 */
import { describe, expect, it } from '@jest/globals';
import { PassThrough, Writable } from 'node:stream';
import { FeedError } from '../../src/feeds/feed-errors.js';
import { openStdoutStorage } from '../../src/feeds/stdout-storage.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A stream whose writes fail as a pipe without a reader does. */
function brokenPipe(): Writable {
  return new Writable({
    highWaterMark: 4,
    write(_chunk, _encoding, callback) {
      setImmediate(() => callback(Object.assign(new Error('EPIPE: broken pipe, write'), { code: 'EPIPE' })));
    },
  });
}

describe('openStdoutStorage', () => {
  it('reports a full buffer once and its drain once, keeping every byte in order', async () => {
    const stream = new PassThrough({ highWaterMark: 4 });
    const signals: boolean[] = [];
    const storage = openStdoutStorage('-', { stream, backpressure: (full) => signals.push(full) });
    storage.write(Buffer.from('one\n'));
    storage.write(Buffer.from('two\n'));
    storage.write(Buffer.from('three\n'));
    expect(signals).toEqual([true]);
    let read = '';
    stream.on('data', (chunk: Buffer) => (read += chunk.toString()));
    await tick();
    expect(signals).toEqual([true, false]);
    expect(read).toBe('one\ntwo\nthree\n');
  });

  it('reports a failure that arrives after the write once, as a FeedError with the system code, and throws it on later writes', async () => {
    const stream = brokenPipe();
    const failures: FeedError[] = [];
    const signals: boolean[] = [];
    const storage = openStdoutStorage('-', { stream, failed: (error) => failures.push(error), backpressure: (full) => signals.push(full) });
    storage.write(Buffer.from('0123456789\n'));
    await tick();
    await tick();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(FeedError);
    expect(failures[0]!.reason).toBe('EPIPE: broken pipe');
    expect(failures[0]!.systemCode).toBe('EPIPE');
    // The crawl had paused for 'drain', which a broken stream never emits: it is released.
    expect(signals).toEqual([true, false]);
    expect(() => storage.write(Buffer.from('more\n'))).toThrow(failures[0]);
    expect(failures).toHaveLength(1);
  });

  it('stops listening for errors once closed with nothing queued, so crawls in one process do not pile up listeners', () => {
    const stream = new PassThrough();
    stream.resume();
    const before = stream.listenerCount('error');
    const storage = openStdoutStorage('-', { stream });
    expect(stream.listenerCount('error')).toBe(before + 1);
    storage.close();
    expect(stream.listenerCount('error')).toBe(before);
  });
});
