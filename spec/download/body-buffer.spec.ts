import { describe, expect, it } from '@jest/globals';
import { BodyBuffer } from '../../src/download/body-buffer.js';

const bytes = (n: number, fill: number): Buffer => Buffer.alloc(n, fill);

describe('BodyBuffer', () => {
  it('fills one buffer of the announced size and returns it without a copy', () => {
    const collected = new BodyBuffer();
    collected.expect(200_000);
    collected.push(bytes(150_000, 1));
    collected.push(bytes(50_000, 2));
    const body = collected.take();
    expect([body.length, body.buffer.byteLength, body[149_999], body[150_000]]).toEqual([200_000, 200_000, 1, 2]);
  });

  it('goes on in chunks when more bytes come than announced', () => {
    const collected = new BodyBuffer();
    collected.expect(100_000);
    collected.push(bytes(80_000, 1));
    collected.push(bytes(80_000, 2));
    const body = collected.take();
    expect([body.length, body[79_999], body[80_000], body[159_999]]).toEqual([160_000, 1, 2, 2]);
  });

  it('returns what came when fewer bytes come than announced (a kept broken body)', () => {
    const collected = new BodyBuffer();
    collected.expect(100_000);
    collected.push(bytes(70_000, 3));
    expect([collected.take().length, collected.size]).toEqual([70_000, 70_000]);
  });

  it('concatenates small or unannounced bodies, and ignores an impossible announced size', () => {
    const collected = new BodyBuffer();
    collected.expect(Number.MAX_SAFE_INTEGER);
    collected.push(Buffer.from('ab'));
    collected.push(Buffer.from('cd'));
    expect(collected.take().toString()).toBe('abcd');
  });
});
